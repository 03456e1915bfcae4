# SPDX-License-Identifier: GPL-2.0-only
# callgrind's output file, read for the calls into each function: "NAME
# COUNT" lines, each function's calls from every caller summed. Names are
# written once as "(ID) NAME", then as "(ID)" alone.
function resolve(s,   id, rest) {
	if (match(s, /^\([0-9]+\)/)) {
		id = substr(s, 2, RLENGTH - 2)
		rest = substr(s, RLENGTH + 2)
		if (rest != "")
			names[id] = rest
		return names[id]
	}
	return s
}
/^fn=/ { resolve(substr($0, 4)); next }
/^cfn=/ { callee = resolve(substr($0, 5)); next }
/^calls=/ { split(substr($0, 7), a, " "); n[callee] += a[1]; next }
END { for (f in n) print f, n[f] }
