# Helpers of the perf sched shell tests; sourced after common.sh.

# same_lines LINUX OURS [NAMES]: the lines must be equal, except that a
# frame Linux perf leaves "[unknown]" may have a name in ours: Linux perf
# sched timehist does not read MMAP2 records, so it resolves no
# user-space frame.  Such a name may hold spaces (C++ templates), never
# an empty string.  With NAMES, a file of one symbol a line, that name
# must be one of those.
same_lines() {
	awk -v names="${3:-}" '
	BEGIN {
		if (names != "")
			while ((getline name < names) > 0)
				allowed[name] = 1
	}
	function frames_match(l, o,   nl, no, L, O, i, k, name) {
		nl = split(l, L, / <- /)
		no = split(o, O, / <- /)
		if (nl != no)
			return 0
		for (i = 1; i <= nl; i++) {
			if (L[i] == O[i])
				continue
			if (L[i] !~ /\[unknown\]$/)
				return 0
			k = length(L[i]) - length("[unknown]")
			name = substr(O[i], k + 1)
			if (substr(L[i], 1, k) != substr(O[i], 1, k) ||
			    name == "" || (names != "" && !(name in allowed)))
				return 0
		}
		return 1
	}
	NR == FNR { lin[FNR] = $0; nlin = FNR; next }
	{
		if (!(FNR in lin) || !frames_match(lin[FNR], $0)) {
			printf "line %d differs:\n  linux: %s\n  ours:  %s\n", FNR, lin[FNR], $0
			bad = 1
			exit 1
		}
		nours = FNR
	}
	END {
		if (bad)
			exit 1
		if (nours != nlin) {
			printf "linux has %d lines, ours %d\n", nlin, nours
			exit 1
		}
	}' "$1" "$2"
}
