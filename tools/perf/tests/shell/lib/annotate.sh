# Reading perf annotate's output; sourced after common.sh.

# The instruction lines of an annotation in file $1 (--stdio):
# "percent : address: insn".
insns() {
	grep -E '^ +[0-9]+(\.[0-9]+)? : +[0-9a-f]+: ' "$1"
}

# The instruction lines of the annotate browser's screen (stdin), as
# --stdio prints them: without the jump marks.
screen_insns() {
	grep -E '^ +[0-9]+\.[0-9]+ (\^ |v |->|  ) +[0-9a-f]+:  ' |
		sed -E 's/^( +[0-9]+\.[0-9]+) (\^ |v |->|  ) +/\1 :   /'
}

# The share of the samples on the hot loop of the instruction lines on
# stdin: from the target of the backward jump to the jump.
loop_share() {
	awk '
		function hex(s,   i, v) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		{ pct[NR] = $1; addr[NR] = hex(substr($3, 1, length($3) - 1)) }
		$4 ~ /^j/ && $5 ~ /^[0-9a-f]+$/ {
			t = hex($5)
			if (t < addr[NR]) { from = t; to = addr[NR] }
		}
		END {
			if (!to) { print -1; exit }
			for (i = 1; i <= NR; i++)
				if (addr[i] >= from && addr[i] <= to)
					s += pct[i]
			print s
		}'
}
