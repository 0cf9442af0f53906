#!/bin/sh
# perf data convert --to-json writes the JSON of Linux perf, on both tools' files
. "$(dirname "$0")/lib/common.sh"
need_root
need_sampling
note_linux_perf
command -v python3 > /dev/null || skip "python3 is not installed: the JSON cannot be checked"

copy_workload_binaries
wl="$tmpdir/bin/perf test -w cpuloop 0.1"
thr="$tmpdir/bin/perf test -w threads 2 2000"

# Each tool records: call chains, two events, the whole system with
# call chains, a clock reference (-k), threads, and with tracefs a
# tracepoint beside a software event.
tools=ours
have_linux_perf && tools="linux ours"
files=
for tool in $tools; do
	rec=$PERF
	[ $tool = linux ] && rec=$LINUX_PERF
	$rec record -q -g -o "$tmpdir/$tool-g.data" -- $wl 2>/dev/null &&
	$rec record -q -e cpu-clock,task-clock -o "$tmpdir/$tool-two.data" -- $wl 2>/dev/null &&
	$rec record -q -a -g -o "$tmpdir/$tool-a.data" -- $wl 2>/dev/null &&
	$rec record -q -k mono -o "$tmpdir/$tool-k.data" -- $wl 2>/dev/null &&
	$rec record -q -g -o "$tmpdir/$tool-thr.data" -- $thr 2>/dev/null ||
		fail "$tool record failed"
	files="$files $tool-g $tool-two $tool-a $tool-k $tool-thr"
	if [ -d /sys/kernel/tracing/events/sched/sched_switch ]; then
		$rec record -q -a -e sched:sched_switch -e cpu-clock -o "$tmpdir/$tool-tp.data" \
			-- $wl 2>/dev/null || fail "$tool record -e sched:sched_switch failed"
		files="$files $tool-tp"
	fi
done

# Workloads whose name is UTF-8, and a byte that is no UTF-8: they
# name the task and a DSO.
mkdir -p "$tmpdir/odd"
cp "$tmpdir/bin/perf" "$tmpdir/bin/libperf-hot.so" "$tmpdir/odd/"
for name in 'pérf' "p$(printf '\377')rf"; do
	cp "$tmpdir/bin/perf" "$tmpdir/odd/$name"
done
"$PERF" record -q -o "$tmpdir/ours-utf8.data" -- "$tmpdir/odd/pérf" test -w cpuloop 0.05 &&
"$PERF" record -q -o "$tmpdir/ours-ff.data" -- "$tmpdir/odd/p$(printf '\377')rf" \
	test -w cpuloop 0.05 || fail "record of the oddly named workloads failed"
# They are compared through perl (bytes_of below).
command -v perl > /dev/null && files="$files ours-utf8 ours-ff"

# A chain whose user part holds a marker no kernel writes (-1, as a
# broken frame-pointer walk can leave): both tools skip that entry and
# show the rest of the chain.  The last entry of the fifth sample with
# a chain of 3 or more becomes all ones, found through the raw dump.
if command -v perl > /dev/null; then
	cp "$tmpdir/ours-g.data" "$tmpdir/ours-bad.data"
	plant_bad_chain_marker "$tmpdir/ours-bad.data"
	files="$files ours-bad"
else
	echo "perl is not installed: the chain with a bad marker is not checked"
fi

# The facts of one of our JSON files: it parses, has the keys of Linux
# perf in its order, one sample per sample of perf script, in time
# order, and frames with an address each.
check_json() {
	python3 - "$1" "$2" 2> "$tmpdir/py.err" <<'EOF' || fail "$3: $(cat "$tmpdir/py.err")"
import json, sys
def die(msg):
	sys.exit(msg)
try:
	d = json.load(open(sys.argv[1], encoding='utf-8'))
except ValueError as e:
	die('not JSON: %s' % e)
if list(d) != ['linux-perf-json-version', 'headers', 'samples']:
	die('top-level keys %s' % list(d))
h = d['headers']
want = ['header-version', 'captured-on', 'data-offset', 'data-size',
	'feat-offset', 'hostname', 'os-release', 'arch', 'cpu-desc', 'cpuid',
	'nrcpus-online', 'nrcpus-avail']
if 'clockid' in h:
	want += ['clockid', 'clock-time', 'real-time']
want += ['perf-version', 'cmdline']
if list(h) != want:
	die('header keys %s' % list(h))
# A file cut short has lost its features, the command line with them.
if h['feat-offset'] != h['data-offset'] + h['data-size'] or \
   h['cmdline'][1:2] not in ([], ['record']):
	die('header %s' % h)
samples = d['samples']
if len(samples) != int(sys.argv[2]) or not samples:
	die('%d samples, perf script shows %s' % (len(samples), sys.argv[2]))
last = 0
for s in samples:
	keys = [k for k in s if k != 'cpu']
	if keys != ['timestamp', 'pid', 'tid', 'comm', 'callchain']:
		die('sample keys %s' % list(s))
	if s['timestamp'] < last:
		die('timestamp %d after %d' % (s['timestamp'], last))
	last = s['timestamp']
	for f in s['callchain']:
		if not f['ip'].startswith('0x') or ('dso' in f and 'symbol' not in f):
			die('frame %s' % f)
EOF
}

# Linux perf writes each byte of a non-ASCII string as "\uffffffXX"
# (the byte taken as a negative char); we write UTF-8 as it is and
# other bytes as the Latin-1 character "\u00XX".  Both back to bytes.
bytes_of() {
	perl -pe 's/\\u(?:ffffff|00)([89a-f][0-9a-f])/chr(hex($1))/ge' "$1"
}

# Linux perf 6.1 adds the "callee@plt" symbols of an object only when
# its symbol tables gave at least one symbol: the PLT entries of a
# stripped executable that exports nothing (/usr/bin/addr2line) are
# unnamed there, named by us (see COMPATIBILITY in perf-data.txt).  Our
# JSON $2 goes to $3 with such a name dropped from a frame that Linux
# perf's $1 leaves without a symbol; prints how many were dropped.
without_plt_names() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
linux = json.load(open(sys.argv[1], encoding='utf-8', errors='surrogateescape'))
bare = set()
for i, s in enumerate(linux['samples']):
	for j, f in enumerate(s['callchain']):
		if 'symbol' not in f:
			bare.add((i, j))
lines = open(sys.argv[2], encoding='utf-8', errors='surrogateescape').read().split('\n')
out = []
sample = frame = -1
dropped = k = 0
while k < len(lines):
	line = lines[k]
	if line == '\t\t{':
		sample += 1
		frame = -1
	elif line == '\t\t\t\t{':
		frame += 1
	elif line.startswith('\t\t\t\t\t"ip": ') and (sample, frame) in bare and \
	     lines[k + 1].startswith('\t\t\t\t\t"symbol": ') and \
	     lines[k + 1].rstrip(',').endswith('@plt"'):
		out.append(line.rstrip(','))
		k += 2
		if lines[k].startswith('\t\t\t\t\t"dso": '):
			k += 1
		dropped += 1
		continue
	out.append(line)
	k += 1
open(sys.argv[3], 'w', encoding='utf-8', errors='surrogateescape').write('\n'.join(out))
print(dropped)
EOF
}

n=0
plt=0
for f in $files; do
	data="$tmpdir/$f.data"
	mkdir -p "$tmpdir/ours" "$tmpdir/linux"
	# Run in a directory of each tool's own, so that the stderr lines,
	# which name the output, compare.
	(cd "$tmpdir/ours" && "$PERF" data convert -i "$data" --to-json out.json) \
		2> "$tmpdir/ours.err" || fail "perf data convert on $f exited $?: $(cat "$tmpdir/ours.err")"
	nr=$("$PERF" script -i "$data" -F tid 2>/dev/null | wc -l)
	check_json "$tmpdir/ours/out.json" "$nr" "$f"
	grep -qx "\[ perf data convert: Converted and wrote [0-9.]* MB ($nr samples) \]" \
		"$tmpdir/ours.err" || fail "$f: stderr says $(cat "$tmpdir/ours.err")"
	if have_linux_perf; then
		(cd "$tmpdir/linux" && $LINUX_PERF data convert -i "$data" --to-json out.json) \
			2> "$tmpdir/linux.err" || fail "Linux perf data convert on $f failed"
		d=$(without_plt_names "$tmpdir/linux/out.json" "$tmpdir/ours/out.json" \
			"$tmpdir/ours.plt") || fail "$f: Linux perf's JSON cannot be read"
		plt=$((plt + d))
		# The escapes of odd bytes differ, and so the size said.
		size='s/wrote [0-9.]* MB/wrote some MB/'
		if [ "${f%-utf8}" != "$f" ] || [ "${f%-ff}" != "$f" ]; then
			bytes_of "$tmpdir/linux/out.json" > "$tmpdir/linux.json"
			bytes_of "$tmpdir/ours.plt" > "$tmpdir/ours.json"
		else
			cp "$tmpdir/linux/out.json" "$tmpdir/linux.json"
			cp "$tmpdir/ours.plt" "$tmpdir/ours.json"
			[ "$d" = 0 ] && size=
		fi
		diff -u "$tmpdir/linux.json" "$tmpdir/ours.json" > "$tmpdir/diff" ||
			fail "JSON of $f differs from Linux perf's: $(head -20 "$tmpdir/diff")"
		# Both warn of lost records alike; the rest must be the same.
		for t in linux ours; do
			grep -v '^Warning\|^$\|^Processed\|^Check' "$tmpdir/$t.err" |
				sed -e "$size" > "$tmpdir/$t.lines"
		done
		cmp -s "$tmpdir/linux.lines" "$tmpdir/ours.lines" ||
			fail "stderr of $f: '$(cat "$tmpdir/ours.lines")', Linux '$(cat "$tmpdir/linux.lines")'"
		n=$((n + 1))
	fi
	rm -f "$tmpdir/ours/out.json" "$tmpdir/linux/out.json"
done
# Threads are told from their process.
"$PERF" data convert -i "$tmpdir/ours-thr.data" --to-json "$tmpdir/thr.json" 2>/dev/null ||
	fail "the threads recording was not converted"
python3 -c '
import json, sys
if not [s for s in json.load(open(sys.argv[1]))["samples"] if s["pid"] != s["tid"]]:
	sys.exit("no sample of a thread")
' "$tmpdir/thr.json" || fail "threads: pid and tid are the same in every sample"

# The odd names come through as the same characters.
"$PERF" data convert -i "$tmpdir/ours-utf8.data" --to-json "$tmpdir/utf8.json" 2>/dev/null &&
"$PERF" data convert -i "$tmpdir/ours-ff.data" --to-json "$tmpdir/ff.json" 2>/dev/null ||
	fail "the oddly named workloads were not converted"
python3 -c '
import json, sys
for path, comm in ((sys.argv[1], "p\u00e9rf"), (sys.argv[2], "p\u00ffrf")):
	if json.load(open(path, encoding="utf-8"))["samples"][0]["comm"] != comm:
		sys.exit(path + ": comm is not " + comm)
' "$tmpdir/utf8.json" "$tmpdir/ff.json" || fail "odd comms were not kept"

# A file without one feature: drop its bit and its entry from the
# feature table.  Without HOSTNAME Linux perf crashes and we write
# null; without CMDLINE both write an empty list.
drop_feature() {
	python3 - "$1" "$2" "$3" <<'EOF' || fail "cannot drop feature $3 from $1"
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
feat = int(sys.argv[3])
d_off, d_sz = struct.unpack_from('<QQ', b, 40)
tab = d_off + d_sz
bits = int.from_bytes(b[72:104], 'little')
feats = [i for i in range(256) if bits >> i & 1]
ents = [b[tab + 16 * i:tab + 16 * i + 16] for i in range(len(feats))]
keep = [e for f, e in zip(feats, ents) if f != feat]
for i, e in enumerate(keep):
	b[tab + 16 * i:tab + 16 * i + 16] = e
b[72:104] = (bits & ~(1 << feat)).to_bytes(32, 'little')
open(sys.argv[2], 'wb').write(b)
EOF
}
drop_feature "$tmpdir/ours-g.data" "$tmpdir/nohost.data" 3
drop_feature "$tmpdir/ours-g.data" "$tmpdir/nocmd.data" 11
"$PERF" data convert -i "$tmpdir/nohost.data" --to-json "$tmpdir/nohost.json" 2>/dev/null &&
"$PERF" data convert -i "$tmpdir/nocmd.data" --to-json "$tmpdir/nocmd.json" 2>/dev/null ||
	fail "files without a feature were not converted"
python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["headers"]
c = json.load(open(sys.argv[2]))["headers"]
if h["hostname"] is not None or h["arch"] is None or c["cmdline"] != []:
	sys.exit("headers %s and %s" % (h, c))
' "$tmpdir/nohost.json" "$tmpdir/nocmd.json" || fail "missing features are not null or empty"
if have_linux_perf; then
	$LINUX_PERF data convert -i "$tmpdir/nocmd.data" --to-json "$tmpdir/nocmd.l.json" \
		2>/dev/null || fail "Linux perf data convert on a file without CMDLINE failed"
	cmp -s "$tmpdir/nocmd.l.json" "$tmpdir/nocmd.json" ||
		fail "without CMDLINE the JSON differs from Linux perf's"
fi

# A file cut short: the samples before the cut, a warning, exit 0.
size=$(wc -c < "$tmpdir/ours-g.data")
head -c $((size / 2)) "$tmpdir/ours-g.data" > "$tmpdir/cut.data"
"$PERF" data convert -i "$tmpdir/cut.data" --to-json "$tmpdir/cut.json" 2> "$tmpdir/err" ||
	fail "a file cut short was not converted: $(cat "$tmpdir/err")"
grep -q "^Warning: .*cut short" "$tmpdir/err" || fail "no warning of the cut: $(cat "$tmpdir/err")"
check_json "$tmpdir/cut.json" "$("$PERF" script -i "$tmpdir/cut.data" -F tid 2>/dev/null | wc -l)" cut

# A pipe: Linux perf 6.1 cannot convert one; we read the features the
# stream carries and leave out what only a file has.
"$PERF" record -q -g -o - -- $wl > "$tmpdir/pipe.data" ||
	fail "perf record -o - failed"
cat "$tmpdir/pipe.data" | "$PERF" data convert -i - --to-json "$tmpdir/pipe.json" \
	2> "$tmpdir/err" || fail "perf data convert on a pipe failed: $(cat "$tmpdir/err")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
h = d["headers"]
if "captured-on" in h or h["data-offset"] or not h["hostname"] or not d["samples"]:
	sys.exit("pipe headers %s" % h)
' "$tmpdir/pipe.json" || fail "the JSON of a pipe is wrong"

# Errors: an existing output without -f is left alone, with -f it is
# replaced; a missing, garbage or empty input creates no output;
# --to-ctf is refused.
out="$tmpdir/exists.json"
echo keep > "$out"
"$PERF" data convert -i "$tmpdir/ours-g.data" --to-json "$out" > "$tmpdir/err" 2>&1 &&
	fail "an existing output was overwritten without -f"
grep -q -- "--force" "$tmpdir/err" || fail "no hint at --force: $(cat "$tmpdir/err")"
[ "$(cat "$out")" = keep ] || fail "the existing output was changed"
"$PERF" data convert -f -i "$tmpdir/ours-g.data" --to-json "$out" 2>/dev/null ||
	fail "-f did not overwrite the output"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out" || fail "-f wrote no JSON"
head -c 4096 /dev/urandom > "$tmpdir/garbage.data"
: > "$tmpdir/empty.data"
for bad in nosuch garbage empty; do
	rm -f "$tmpdir/bad.json"
	"$PERF" data convert -i "$tmpdir/$bad.data" --to-json "$tmpdir/bad.json" \
		> "$tmpdir/err" 2>&1 && fail "a $bad input was converted"
	grep -q "$bad.data" "$tmpdir/err" || fail "the error does not name $bad.data: $(cat "$tmpdir/err")"
	[ -e "$tmpdir/bad.json" ] && fail "a $bad input left an output file"
done
"$PERF" data convert -i "$tmpdir/ours-g.data" --to-ctf "$tmpdir/ctf" > "$tmpdir/err" 2>&1 &&
	fail "--to-ctf was accepted"
grep -q CTF "$tmpdir/err" || fail "--to-ctf: $(cat "$tmpdir/err")"
"$PERF" data convert -i "$tmpdir/ours-g.data" > /dev/null 2>&1 && fail "no --to-json was accepted"
"$PERF" data nosuch > /dev/null 2>&1 && fail "an unknown subcommand was accepted"
echo "$n files equal Linux perf's JSON ($plt PLT entries named by us only)"
echo ok
