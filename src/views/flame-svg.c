// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>

#include "flame-svg.h"

static void put_xml(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: putc(*s, out);
		}
	}
}

/* A warm color of its own for each name. */
static void color_of(const char *name, unsigned int rgb[3])
{
	uint32_t h = 2166136261u;

	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	rgb[0] = 200 + h % 55;
	rgb[1] = 80 + (h >> 8) % 150;
	rgb[2] = (h >> 16) % 60;
}

static void put_time(FILE *out, uint64_t ns)
{
	if (ns >= 10000000)
		fprintf(out, "%.1f ms", ns / 1e6);
	else if (ns >= 10000)
		fprintf(out, "%.1f us", ns / 1e3);
	else
		fprintf(out, "%" PRIu64 " ns", ns);
}


/* Zoom on a click (the box's stack fills the width), search on "Search",
 * names clipped to their box; a link's ?s=REGEX searches and ?f=NAME
 * zooms on the widest box of that function as the page opens. */
static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"var W = %.0f, frames = document.getElementsByClassName('f');\n"
	/* positions written rounded to 0.01: a zoom's scaling must not leave
	 * 1179.9999999999998 where 1180 is meant */
	"function fit(g, x, w) {\n"
	"  x = Math.round(x * 100) / 100; w = Math.round(Math.max(w, 0) * 100) / 100;\n"
	"  var r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
	"  var name = g.getElementsByTagName('title')[0].textContent.replace(/ \\(.*$/, '');\n"
	"  r.setAttribute('x', x); r.setAttribute('width', w);\n"
	"  t.setAttribute('x', x + 3);\n"
	"  var n = Math.floor((w - 6) / 7);\n"
	"  t.textContent = n >= name.length ? name : n > 2 ? name.slice(0, n - 2) + '..' : '';\n"
	"}\n"
	"function zoom(x0, w0, y0) {\n"
	"  for (var i = 0; i < frames.length; i++) {\n"
	"    var g = frames[i], x = +g.dataset.x, w = +g.dataset.w;\n"
	"    var y = +g.getElementsByTagName('rect')[0].getAttribute('y');\n"
	/* callers below (on its width), what it called above (inside it);
	 * positions are rounded to 0.01 */
	"    var inside = (y > y0 && x + w > x0 + 0.02 && x < x0 + w0 - 0.02) ||\n"
	"                 (x >= x0 - 0.02 && x + w <= x0 + w0 + 0.02);\n"
	"    g.style.display = inside ? '' : 'none';\n"
	"    if (inside) fit(g, Math.max(0, (x - x0) * W / w0) + 10, Math.min(w, w0) * W / w0);\n"
	"  }\n"
	"}\n"
	"for (var i = 0; i < frames.length; i++) {\n"
	"  fit(frames[i], +frames[i].dataset.x + 10, +frames[i].dataset.w);\n"
	"  frames[i].onclick = function () {\n"
	"    zoom(+this.dataset.x, +this.dataset.w, +this.getElementsByTagName('rect')[0].getAttribute('y'));\n"
	"  };\n"
	"}\n"
	"function search(re) {\n"
	"  re = new RegExp(re);\n"
	"  for (var i = 0; i < frames.length; i++) {\n"
	"    var r = frames[i].getElementsByTagName('rect')[0];\n"
	"    var name = frames[i].getElementsByTagName('title')[0].textContent.replace(/ \\(.*$/, '');\n"
	"    if (!r.dataset.fill) r.dataset.fill = r.getAttribute('fill');\n"
	"    r.setAttribute('fill', re.test(name) ? 'rgb(200,60,230)' : r.dataset.fill);\n"
	"  }\n"
	"}\n"
	"document.getElementById('reset').onclick = function () { zoom(0, W, 1e9); };\n"
	"document.getElementById('search').onclick = function () {\n"
	"  var re = prompt('Search (a regular expression)'); if (re !== null) search(re);\n"
	"};\n"
	/* a link can carry both: FILE.svg?s=REGEX&f=NAME */
	"var q = new URLSearchParams(location.search), wide = null;\n"
	"if (q.get('s')) search(q.get('s'));\n"
	"for (var i = 0; q.get('f') && i < frames.length; i++)\n"
	"  if (frames[i].getElementsByTagName('title')[0].textContent.replace(/ \\(.*$/, '') == q.get('f') &&\n"
	"      (!wide || +frames[i].dataset.w > +wide.dataset.w)) wide = frames[i];\n"
	"if (wide) wide.onclick();\n"
	"]]></script>\n";

void kft_flame_svg_begin(FILE *out, double height, const char *title, uint64_t total_ns)
{
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		     "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" "
		     "font-size=\"12\">\n"
		     "<rect width=\"100%%\" height=\"100%%\" fill=\"rgb(250,250,240)\"/>\n"
		     "<text x=\"%.0f\" y=\"20\" text-anchor=\"middle\" font-size=\"16\">",
		WIDTH, height, WIDTH, height, WIDTH / 2);
	put_xml(out, title);
	fputs(" (", out);
	put_time(out, total_ns);
	fputs(")</text>\n<text id=\"reset\" x=\"10\" y=\"20\" cursor=\"pointer\">Reset zoom</text>\n"
	      "<text id=\"search\" x=\"1130\" y=\"20\" cursor=\"pointer\">Search</text>\n",
	      out);
}

void kft_flame_svg_box(FILE *out, const char *name, const char *mark, uint64_t ns,
		       uint64_t total_ns, double x, double y, double w)
{
	unsigned int rgb[3];

	color_of(name, rgb);
	fprintf(out, "<g class=\"f\" data-x=\"%.2f\" data-w=\"%.2f\"><title>", x, w);
	put_xml(out, name);
	put_xml(out, mark);
	fputs(" (", out);
	put_time(out, ns);
	fprintf(out, ", %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
		     "fill=\"rgb(%u,%u,%u)\" rx=\"2\"/><text x=\"%.2f\" y=\"%.0f\">",
		total_ns ? 100.0 * (double)ns / (double)total_ns : 0.0, x + 10, y, w, FRAME - 1,
		rgb[0], rgb[1], rgb[2], x + 13, y + FRAME - 4);
	put_xml(out, name);
	put_xml(out, mark);
	fputs("</text></g>\n", out);
}

void kft_flame_svg_label(FILE *out, double x, double y, const char *text)
{
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">", x, y);
	put_xml(out, text);
	fputs("</text>\n", out);
}

void kft_flame_svg_end(FILE *out)
{
	fprintf(out, script, WIDTH - 20);
	fputs("</svg>\n", out);
}
