#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The floors of docs/design.md, checked: every #include "..." in src/,
# module/ and include/ must name a file of its own folder or of a folder
# its row of the table there allows. Prints each include that crosses,
# with file and line, and exits 1; silent and 0 when none does.
#
#   tests/floors.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# the table's rows: | `folder` | job | may include |
declare -A allowed
while IFS='|' read -r _ folder _ may _; do
	folder=$(tr -d ' `' <<<"$folder")
	may=$(tr -d ' ' <<<"$may")
	[ "$may" = - ] && may=""
	allowed[${folder#src/}]=",${may},"
done < <(grep -E '^\| `(src/[a-z]+|module|include)` \|' docs/design.md)
[ "${#allowed[@]}" -gt 0 ] || { echo "floors: no table in docs/design.md"; exit 1; }

# the folder a path lies in, as the table names it
folder_of() {
	case $1 in
	src/*/*) local f=${1#src/}; echo "${f%%/*}" ;;
	module/*|include/*) echo "${1%%/*}" ;;
	*) echo "" ;;
	esac
}

bad=0
while IFS= read -r file; do
	from=$(folder_of "$file")
	if [ -z "${allowed[$from]+x}" ]; then
		echo "$file: folder $from has no row in docs/design.md's table"
		bad=1
		continue
	fi
	while IFS=: read -r line inc; do
		inc=${inc#*\"}
		inc=${inc%%\"*}
		# relative to the file, else to src/ (kft.ko's Kbuild adds it)
		target=$(realpath -m --relative-to=. "$(dirname "$file")/$inc")
		[ -e "$target" ] || target=$(realpath -m --relative-to=. "src/$inc")
		[ -e "$target" ] || continue
		to=$(folder_of "$target")
		[ -n "$to" ] && [ "$to" != "$from" ] || continue
		case ${allowed[$from]} in
		*",$to,"*) ;;
		*) echo "$file:$line: includes $inc, of $to, which $from may not (docs/design.md)"
		   bad=1 ;;
		esac
	done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" || true)
done < <(find src module include -name '*.[chS]' | sort)
exit $bad
