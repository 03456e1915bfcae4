# SPDX-License-Identifier: GPL-2.0-only
# The workload tests/fidelity/run.sh gives an instrumented dash: recursion
# through functions and command substitutions (a process each), loops,
# arithmetic, pattern matching, pipelines, here-documents, eval, traps and
# subshells. Its output is the same every time.
fib() {
	if [ "$1" -lt 2 ]; then
		echo "$1"
	else
		echo $(( $(fib $(($1 - 1))) + $(fib $(($1 - 2))) ))
	fi
}

count_words() {
	n=0
	for w in $1; do
		case $w in
		*[aeiou]*) n=$((n + 1)) ;;
		*) ;;
		esac
	done
	echo "$n"
}

echo "fib 11 = $(fib 11)"
i=0
total=0
while [ $i -lt 300 ]; do
	total=$(( (total * 31 + i) % 1000003 ))
	i=$((i + 1))
done
echo "total $total"
echo "vowel words: $(count_words 'the quick brown fox jumps over the lazy dog sphynx rhythm')"
printf '%s\n' one two three four five | while read -r line; do
	echo "${#line}:${line%e}"
done
while read -r a b; do echo "$b $a"; done <<HERE | (read -r l; echo "$l")
first second
HERE
for v in a b c; do
	eval "var_$v=\$v\$v"
done
echo "$var_a $var_b $var_c"
( trap 'echo trapped' EXIT; exit 0 )
x=$( (echo sub; echo shell) | { n=0; while read -r _; do n=$((n + 1)); done; echo "$n"; } )
echo "lines $x"
