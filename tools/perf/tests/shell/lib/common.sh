# Helpers shared by the shell tests; sourced, not run.
# Exit codes: 0 pass, 1 fail, 2 skip (the last line printed says why).

PERF=${PERF:-perf}

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "$*"
	exit 2
}

# True under the ASan/UBSan build (scripts/check-sanitizers sets it):
# memory use is the sanitizer's as much as perf's there.
under_sanitizer() {
	[ "${PERF_TEST_SANITIZER:-0}" = 1 ]
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (tracepoints and system-wide counting)"
}

need_tracepoint() {
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$d/events/$1/$2" ] && return 0
	done
	skip "tracepoint $1:$2 not available (tracefs not mounted or kernel lacks it)"
}

# True when counters go through perf_counter_open: a kernel with the
# perf_counter subsystem and no PERF_BACKEND=event.
on_counter_backend() {
	[ -e /proc/sys/kernel/perf_counter_paranoid ] &&
		[ "${PERF_BACKEND:-}" != event ]
}

# perf_counter gains features step by step: on its backend, skip (saying
# why) when the kernel cannot do what the test needs yet.  Stock kernels
# are never skipped here, so a regression of the tool still fails.
need_sampling() {
	on_counter_backend || return 0
	$PERF record -q -o "$tmpdir/.probe.data" -- true 2>"$tmpdir/.probe.err" &&
		return 0
	skip "this kernel's perf_counter cannot sample yet: $(head -n 1 "$tmpdir/.probe.err")"
}

need_tracepoint_counters() {
	on_counter_backend || return 0
	$PERF stat -x, -o "$tmpdir/.probe.csv" -e "$1:$2" -- true 2>/dev/null
	grep -q '<not supported>' "$tmpdir/.probe.csv" || return 0
	skip "this kernel's perf_counter has no tracepoint counters yet"
}

# Wait until perf record has created its output file $1: it does so only
# after its counters are open, so what follows is recorded however slow
# the machine is.  Gives up after 60 s.
wait_recording() {
	n=0
	while [ ! -s "$1" ]; do
		n=$((n + 1))
		[ $n -le 600 ] || fail "perf record did not create $1 within 60 s"
		sleep 0.1
	done
}

# perf -v's stderr says both runs used the backend they were given:
# $tmpdir/counter.err perf_counter_open, $tmpdir/event.err perf_event_open.
expect_both_backends() {
	grep -q 'Using perf_counter_open' "$tmpdir/counter.err" ||
		fail "the counter run did not use perf_counter_open: $(cat "$tmpdir/counter.err")"
	grep -q 'Using perf_event_open' "$tmpdir/event.err" ||
		fail "the event run did not use perf_event_open: $(cat "$tmpdir/event.err")"
}

# Start 'perf test -w syscalls --wait-signal $1 0 0' in the background,
# not as our child (init reaps it, so -p sees it exit), and print its
# pid once it waits for SIGUSR1 (nothing if it did not start within
# 5 s); it then makes $1 getppid calls.
start_waiting_syscalls() {
	( $PERF test -w syscalls --wait-signal "$1" 0 0 > "$tmpdir/ready" & )
	i=0
	while ! grep -q ready "$tmpdir/ready" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && return
		sleep 0.05
	done
	awk '{ print $2 }' "$tmpdir/ready"
}

# The value column of a CSV line from 'perf stat -x,' for event $2 in file $1.
csv_value() {
	awk -F, -v ev="$2" '$3 == ev { print $1; exit }' "$1"
}

tmpdir=$(mktemp -d)
trap 'rm -rf "$tmpdir"' EXIT

# Linux perf (Debian linux-perf), the oracle of the differential tests.
LINUX_PERF=${LINUX_PERF:-/usr/bin/perf}

# True when Linux perf runs here.
have_linux_perf() {
	"$LINUX_PERF" --version 2>/dev/null | grep -q "perf version"
}

# Why have_linux_perf is false.
linux_perf_missing() {
	if [ -x "$LINUX_PERF" ]; then
		echo "Linux perf at $LINUX_PERF does not run"
	else
		echo "Linux perf ($LINUX_PERF) missing: install the linux-perf package (scripts/install-deps)"
	fi
}

need_linux_perf() {
	have_linux_perf || skip "$(linux_perf_missing)"
}

# For tests whose own checks run without Linux perf: say once, when it
# is absent, that the comparisons with it are left out, and why.
note_linux_perf() {
	have_linux_perf ||
		echo "comparisons with Linux perf left out, the other checks run: $(linux_perf_missing)"
}

# A private copy of perf and its workload library in $tmpdir/bin: a
# rebuild of perf while a test runs must not change the binaries its
# recordings refer to.
copy_workload_binaries() {
	mkdir -p "$tmpdir/bin"
	cp "$PERF" "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/" ||
		fail "cannot copy $PERF to $tmpdir/bin"
}

# The histogram rows of a 'perf report --stdio' output, whitespace
# normalized and sorted, so two reports can be compared.
report_rows() {
	grep -E '^ +[0-9]+\.[0-9]+%' "$1" | sed -e 's/  */ /g' -e 's/^ //' -e 's/ $//' | sort
}

# Each entry with its call graph as one line, sorted.  Graph lines are
# compared as a set without the tree's bars: branches of equal weight
# may come in another order, which moves the bars.
report_blocks() {
	grep -v '^#' "$1" | grep -v '^$' | sed -e 's/[|]//g' -e 's/  */ /g' -e 's/ $//' | awk '
		/^ [0-9]+\.[0-9]+%/ { flush(); head = $0; n = 0; next }
		{ lines[n++] = $0 }
		function flush(   i, j, t, out) {
			if (head == "")
				return
			# As strings: awk compares lines that read as
			# numbers (raw frames like " 0x4") as numbers,
			# which is no total order with the others.
			for (i = 0; i < n; i++)
				for (j = i + 1; j < n; j++)
					if ((lines[j] "") < (lines[i] "")) { t = lines[i]; lines[i] = lines[j]; lines[j] = t }
			out = head
			# Graphs of symbol-less entries hold raw frame
			# addresses, where Linux perf repeats one address
			# for the whole chain: compare those by their row.
			if (head ~ /\] (0x[0-9a-f]+|0+)$/)
				n = 0
			for (i = 0; i < n; i++)
				out = out "|" lines[i]
			print out
		}
		END { flush() }' | sort
}

# Our report reads FILE with the given options and prints rows.
our_report() {
	file=$1
	shift
	"$PERF" report -i "$file" --stdio "$@" > "$tmpdir/ours.txt" 2> "$tmpdir/ours.err" ||
		fail "our report failed on $file ($*): $(cat "$tmpdir/ours.err")"
	report_rows "$tmpdir/ours.txt" | grep -q . ||
		fail "our report printed no rows for $file ($*)"
}

# Whether the report options sort by sym without dso.  Linux perf's
# sym key then compares places without a symbol by their address alone
# and named ones by object first: no total order, so in its tree two
# symbol-less entries of one address in two objects are one entry only
# where the search meets the first on its way (perf-report.txt).
keys_merge_nosym_by_address() {
	keys=
	while [ $# -gt 0 ]; do
		case $1 in
		-s|--sort|-F|--fields) keys=$2; shift ;;
		--sort=*) keys=${1#--sort=} ;;
		--fields=*) keys=${1#--fields=} ;;
		esac
		shift
	done
	case ",$keys," in
	*,dso,*) return 1 ;;
	*,sym,*|*,symbol,*) return 0 ;;
	esac
	return 1
}

# The samples of each symbol-less entry ("-n"), before its key columns
# (address 0 prints as "0000000000000000", without "0x"), without the
# privilege level, which Linux perf may print stale for a call chain's
# frame outside every map (perf-report.txt); with "sum", those of the
# entries of one key added up.
nosym_samples() {
	report_rows "$1" | awk -v sum="${2:-}" '/\] (0x[0-9a-f]+|0+)$/ {
		i = 1
		while ($i ~ /%$/)
			i++
		key = ""
		for (j = i + 1; j <= NF; j++)
			if ($j !~ /^\[.\]$/)
				key = key " " $j
		if (sum == "")
			print $i key
		n[key] += $i
	} END { if (sum != "") for (k in n) print n[k] k }' | sort
}

# The options again, with -n; a -F list (where -n shows nothing) becomes
# the sample count and its key columns.  One per line.
nosym_options() {
	printf '%s\n' -n
	while [ $# -gt 0 ]; do
		case $1 in
		-F|--fields)
			printf '%s\n' "$1"
			shift
			echo "$1" | tr ',' '\n' |
				grep -Ev '^(overhead.*|sample|period)$' |
				paste -sd, | sed 's/^/sample,/'
			;;
		*) printf '%s\n' "$1" ;;
		esac
		shift
	done
}

# For keys_merge_nosym_by_address: our symbol-less entries hold the
# samples of Linux perf's entries of the same key, together.
same_nosym_samples() {
	file=$1
	shift
	nosym_options "$@" > "$tmpdir/nosym.opts"
	# shellcheck disable=SC2046
	(IFS='
'
	 set -- $(cat "$tmpdir/nosym.opts")
	 "$PERF" report -i "$file" --stdio "$@" > "$tmpdir/ours.n" 2>&1 ||
		fail "our report -n failed on $file ($*): $(cat "$tmpdir/ours.n")"
	 "$LINUX_PERF" report -i "$file" --stdio "$@" > "$tmpdir/linux.n" 2>&1 ||
		fail "Linux perf report -n failed on $file ($*)") || exit 1
	nosym_samples "$tmpdir/ours.n" > "$tmpdir/ours.ns"
	nosym_samples "$tmpdir/linux.n" sum > "$tmpdir/linux.ns"
	diff "$tmpdir/linux.ns" "$tmpdir/ours.ns" ||
		fail "samples without a symbol differ on $file ($*)"
}

# Leave the symbol-less rows out of each FILE, compared by
# same_nosym_samples instead.
drop_nosym_rows() {
	# Its own name: callers loop over "$f".
	for nosym_rows in "$@"; do
		grep -Ev '\] (0x[0-9a-f]+|0+)$' "$nosym_rows" > "$nosym_rows.n"
		mv "$nosym_rows.n" "$nosym_rows"
	done
}

# Compare our report with Linux perf's on FILE with the given options.
same_report() {
	file=$1
	shift
	"$PERF" report -i "$file" --stdio "$@" > "$tmpdir/ours.txt" 2> "$tmpdir/ours.err" ||
		fail "our report failed on $file ($*): $(cat "$tmpdir/ours.err")"
	"$LINUX_PERF" report -i "$file" --stdio "$@" > "$tmpdir/linux.txt" 2> "$tmpdir/linux.err" ||
		fail "Linux perf report failed on $file ($*): $(cat "$tmpdir/linux.err")"
	if [ -n "${COMPARE_GRAPHS:-}" ]; then
		report_blocks "$tmpdir/ours.txt" > "$tmpdir/ours.rows"
		report_blocks "$tmpdir/linux.txt" > "$tmpdir/linux.rows"
	else
		report_rows "$tmpdir/ours.txt" > "$tmpdir/ours.rows"
		report_rows "$tmpdir/linux.txt" > "$tmpdir/linux.rows"
	fi
	[ -s "$tmpdir/linux.rows" ] || fail "Linux perf printed no rows for $file ($*)"
	# UNIQ_ROWS: a row (with its graph) repeated whole counts once.
	if [ -n "${UNIQ_ROWS:-}" ]; then
		uniq "$tmpdir/ours.rows" > "$tmpdir/rows.u" && mv "$tmpdir/rows.u" "$tmpdir/ours.rows"
		uniq "$tmpdir/linux.rows" > "$tmpdir/rows.u" && mv "$tmpdir/rows.u" "$tmpdir/linux.rows"
	fi
	if keys_merge_nosym_by_address "$@"; then
		same_nosym_samples "$file" "$@"
		drop_nosym_rows "$tmpdir/ours.rows" "$tmpdir/linux.rows"
	fi
	if ! cmp -s "$tmpdir/ours.rows" "$tmpdir/linux.rows"; then
		echo "report differs on $file with: $*"
		diff "$tmpdir/linux.rows" "$tmpdir/ours.rows" | head -30
		fail "rows differ"
	fi
	# The sample count and event count lines must agree too.
	for pat in '^# Samples' '^# Event count'; do
		a=$(grep "$pat" "$tmpdir/ours.txt")
		b=$(grep "$pat" "$tmpdir/linux.txt")
		[ "$a" = "$b" ] || fail "'$a' vs Linux '$b' ($*)"
	done
}

# A marker that is no context (all ones, as a broken frame-pointer walk
# can leave) in the call chain of a recording: the last entry of the
# fifth sample with a chain of 3 or more that ends in user space, found
# through the raw dump's offsets.  Needs perl.
plant_bad_chain_marker() {
	"$PERF" script -D -i "$1" | perl -e '
		open(my $fh, "+<", $ARGV[0]) or die; binmode $fh;
		while (<STDIN>) {
			if (/^\S+ (0x[0-9a-f]+) \[(0x[0-9a-f]+)\]: PERF_RECORD_SAMPLE/) {
				($off, $size, @ips) = (hex $1, hex $2); next;
			}
			push @ips, hex $1 if defined $off && /^\.{5} +\d+: ([0-9a-f]{16})$/;
			next unless defined $off && /^$/;
			if (@ips >= 3 && $ips[-1] < 1 << 63 && ++$n == 5) {
				seek $fh, $off, 0; read $fh, $rec, $size;
				# The whole chain, nr first: a single value may
				# also stand in another field.
				$at = index($rec, pack("Q<*", scalar(@ips), @ips));
				die "chain not found\n" unless $at >= 0 && $at % 8 == 0;
				seek $fh, $off + $at + 8 * @ips, 0;
				print $fh pack("Q<", ~0); exit 0;
			}
			undef $off;
		}
		die "no sample with a chain of 3\n";' "$1" ||
		fail "could not plant a bad marker in a chain"
}
