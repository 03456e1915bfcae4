/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What kft flame's two pictures share: the page (title, buttons), boxes
 * that name their function, time and share, and the script that clips
 * names to their boxes, zooms on a click (callers below a box, what it
 * called above it) and marks a search.
 */
#ifndef KFT_FLAME_SVG_H
#define KFT_FLAME_SVG_H

#include <stdint.h>
#include <stdio.h>

#define WIDTH 1200.0	/* of the page; boxes get WIDTH - 20 */
#define FRAME 16	/* a level's height */
#define TOP 40		/* title and buttons */
#define MIN_PX 0.1	/* narrower boxes are left out */

/* The page's head, height pixels tall, titled "title (total)". */
void kft_flame_svg_begin(FILE *out, double height, const char *title, uint64_t total_ns);
/* A box of function name (and mark after it) at (x from the left margin,
 * y), w wide, for ns of total. */
void kft_flame_svg_box(FILE *out, const char *name, const char *mark, uint64_t ns,
		       uint64_t total_ns, double x, double y, double w);
/* Text at (x, y), as it is. */
void kft_flame_svg_label(FILE *out, double x, double y, const char *text);
/* The script and the end of the page. */
void kft_flame_svg_end(FILE *out);

#endif
