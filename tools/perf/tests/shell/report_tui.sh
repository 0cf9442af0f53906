#!/bin/sh
# perf report in a terminal (tmux): the browser's rows, folds, zooms, search, help, events, resize and a clean exit
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/annotate.sh"
need_root
need_sampling
command -v tmux > /dev/null 2>&1 ||
	skip "tmux not installed: the browser needs a terminal to be driven in"

copy_workload_binaries
bin=$tmpdir/bin
# A second command name for the same workload, for the thread zoom.
cp "$bin/perf" "$bin/spinner" || fail "cannot copy perf to $bin/spinner"
data=$tmpdir/two.data
"$bin/perf" record -q -g -e cpu-clock -o "$data" -- \
	sh -c "$bin/perf test -w cpuloop 1; $bin/spinner test -w cpuloop 1" \
	> /dev/null 2> "$tmpdir/record.err" ||
	fail "perf record failed: $(cat "$tmpdir/record.err")"
events=$tmpdir/events.data
"$bin/perf" record -q -g -e cpu-clock,task-clock -o "$events" -- \
	"$bin/perf" test -w cpuloop 1 > /dev/null 2> "$tmpdir/record.err" ||
	fail "perf record of two events failed: $(cat "$tmpdir/record.err")"

# Not on a terminal the report is the text one, --tui or not.
"$bin/perf" report -i "$data" --stdio > "$tmpdir/stdio.txt" 2>&1 ||
	fail "perf report --stdio failed: $(cat "$tmpdir/stdio.txt")"
for opt in "" --tui; do
	"$bin/perf" report -i "$data" $opt > "$tmpdir/piped.txt" 2>&1 < /dev/null
	cmp -s "$tmpdir/stdio.txt" "$tmpdir/piped.txt" ||
		fail "perf report $opt into a pipe is not the --stdio report: $(diff "$tmpdir/stdio.txt" "$tmpdir/piped.txt" | head)"
done

. "$(dirname "$0")/lib/tui.sh"

start_report() {
	start_perf report "$@"
}

# The title line, and the histogram rows (fold mark, percent...).
title() {
	pane | sed -n 1p
}
rows() {
	pane | grep -E '^[-+ ] +[0-9]+\.[0-9]+%  '
}
# The rows without their fold marks, as --stdio prints them.
plain_rows() {
	rows | sed 's/^[-+]/ /'
}
# The report browser's title and status lines.
browser_lines="^Samples: |Press '\\?' for help"

# A call graph's frames with their percentages, one per line: from the
# --stdio report's first entry ($1) or the browser's screen (stdin).
stdio_first_graph() {
	awk '/^ +[0-9]+\.[0-9]+%/ { n++; next } n == 1 && /^$/ { exit } n == 1' "$1" |
		sed -e 's/[|]//g' -e 's/--\([0-9.]*%\)--/\1 /' -e 's/---//' \
		    -e 's/^ *//' -e 's/ *$//' | grep .
}
screen_first_graph() {
	awk '/^[-+ ] +[0-9]+\.[0-9]+%  / { n++; next } n == 1' |
		sed -e 's/^ *//' -e 's/^[-+] //' -e 's/ *$//' | grep .
}

# ---- one event, two commands: rows, folds, zooms, search, help ----------
# The title says what the --stdio preamble says.
samples=$(sed -n "s/^# Samples: \(.*\) of event 'cpu-clock'$/\1/p" "$tmpdir/stdio.txt")
count=$(sed -n 's/^# Event count (approx.): //p' "$tmpdir/stdio.txt")
[ -n "$samples" ] && [ -n "$count" ] || fail "no preamble in: $(head "$tmpdir/stdio.txt")"
main_title="Samples: $samples of event 'cpu-clock', Event count \(approx\.\): $count"
start_report -i "$data"
wait_for "^$main_title$" "no title with the event"
[ "$(in_tmux display -p -t 0 '#{alternate_on}')" = 1 ] ||
	fail "the browser is not on the alternate screen"
# Its rows are the --stdio rows, a fold mark in the first column.
want=$(grep -E '^ +[0-9]+\.[0-9]+%' "$tmpdir/stdio.txt" | head -n 5 | sed 's/ *$//')
got=$(plain_rows | head -n 5)
[ "$want" = "$got" ] || fail "the rows are not the --stdio ones:
$want
---
$got"
pane | sed -n 2p | grep -Eq '^  Children      Self  Command  Shared Object +Symbol$' ||
	fail "no column titles: $(pane | sed -n 2p)"
# '+' unfolds the entry: its first frame (and those that follow it
# without a fork), whose branches stay folded.
in_tmux send-keys -t 0 +
wait_for '^   \+ __libc_start_call_main$' "'+' did not unfold the first entry"
pane | grep -Eq '^ +[0-9.]+% workload_hot_a$' &&
	fail "'+' unfolded more than the entry: $(pane)"
# On that frame: its branches, one level deeper.
in_tmux send-keys -t 0 j +
wait_for '^      [-+ ] [0-9.]+% [a-z_]+$' "'+' did not unfold the first frame"
pane | grep -q '^   - __libc_start_call_main$' ||
	fail "the unfolded frame is not marked so: $(pane)"
# 'e': the whole graph, frames and percentages as --stdio prints them.
in_tmux send-keys -t 0 C k e
wait_for '^ +[0-9.]+% hot_lib_loop$' "'e' did not unfold the whole graph"
stdio_first_graph "$tmpdir/stdio.txt" > "$tmpdir/graph.stdio"
pane | screen_first_graph | head -n "$(wc -l < "$tmpdir/graph.stdio")" > "$tmpdir/graph.tui"
cmp -s "$tmpdir/graph.stdio" "$tmpdir/graph.tui" ||
	fail "the graph is not the --stdio one: $(diff "$tmpdir/graph.stdio" "$tmpdir/graph.tui")"
grep -qx 'cmd_test' "$tmpdir/graph.stdio" ||
	grep -q '% cmd_test$' "$tmpdir/graph.stdio" ||
	fail "no cmd_test in the first graph: $(cat "$tmpdir/graph.stdio")"
in_tmux send-keys -t 0 C
wait_for '^\+ +[0-9.]+% +[0-9.]+%  .*\[\.\] __libc_start_call_main$' \
	"'C' did not fold everything"
pane | grep -q '^   - __libc_start_call_main$' && fail "'C' left a graph unfolded"
in_tmux send-keys -t 0 q
wait_exit "'q'" "$browser_lines"

# Self overhead: the hot function first, its caller under it.
start_report -i "$data" --no-children
wait_for "^$main_title$" "no title with --no-children"
first=$(rows | head -n 1)
echo "$first" | grep -Eq '^\+ +[0-9.]+%  (perf|spinner) +(perf|spinner) +\[\.\] workload_hot_a$' ||
	fail "the first row is not workload_hot_a: $first"
comm=$(echo "$first" | awk '{ print $3 }')
dso=$(echo "$first" | awk '{ print $4 }')
[ "$comm" = perf ] && other=spinner || other=perf
rows | grep -q "  $other " || fail "no rows of $other before the zoom: $(pane)"
# 'a': the selected entry's disassembly, most samples in its loop.
in_tmux send-keys -t 0 a
wait_for '^Annotate workload_hot_a  \((perf|spinner)\)  [0-9]+ samples' "'a' did not annotate workload_hot_a"
wait_for '^ +[0-9]+\.[0-9]+ \^  +[0-9a-f]+:  j' "no loop jump marked in the annotation"
share=$(pane | screen_insns | loop_share)
awk -v s="$share" 'BEGIN { exit !(s >= 90) }' ||
	fail "$share% of workload_hot_a's samples in its loop on the screen: $(pane)"
in_tmux send-keys -t 0 q
wait_for "^$main_title$" "'q' did not go back from the annotation to the list"
in_tmux send-keys -t 0 +
wait_for '^ +cmd_test$' "'+' did not show workload_hot_a's caller"
"$bin/perf" report -i "$data" --stdio --no-children > "$tmpdir/self.txt" 2>&1 ||
	fail "perf report --stdio --no-children failed: $(cat "$tmpdir/self.txt")"
stdio_first_graph "$tmpdir/self.txt" > "$tmpdir/graph.stdio"
grep -qx cmd_test "$tmpdir/graph.stdio" ||
	fail "cmd_test does not call workload_hot_a in --stdio: $(cat "$tmpdir/self.txt")"
pane | screen_first_graph > "$tmpdir/graph.tui"
cmp -s "$tmpdir/graph.stdio" "$tmpdir/graph.tui" ||
	fail "workload_hot_a's chain is not the --stdio one: $(diff "$tmpdir/graph.stdio" "$tmpdir/graph.tui")"
# 't': only the thread's rows, the title says which.
in_tmux send-keys -t 0 t
wait_for "^Samples: .*, Thread: $comm$" "'t' did not zoom into the thread"
plain_rows | awk -v c="$comm" '$2 != c { bad = 1 } END { exit bad }' ||
	fail "rows of another thread in the $comm zoom: $(pane)"
rows | grep -q 'workload_hot_b$' || fail "the thread zoom lost the thread's rows: $(pane)"
# Percentages stay those of the whole file.
[ "$(plain_rows | head -n 1)" = "$(echo "$first" | sed 's/^[-+]/ /')" ] ||
	fail "the zoom changed the first row: $(rows | head -n 1)"
in_tmux send-keys -t 0 t
wait_for "^Samples: [^,]*, Event count \(approx\.\): [0-9]+$" "'t' again did not zoom out"
rows | grep -q "  $other " || fail "the rows of $other are not back: $(pane)"
# 'd': only the DSO's rows.
in_tmux send-keys -t 0 d
wait_for "^Samples: .*, DSO: $dso$" "'d' did not zoom into the DSO"
plain_rows | awk -v d="$dso" '$3 != d { bad = 1 } END { exit bad }' ||
	fail "rows of another DSO in the $dso zoom: $(pane)"
rows | grep -q hot_lib_loop && fail "the library's rows in the $dso zoom: $(pane)"
# ESC zooms out, and does not leave.
in_tmux send-keys -t 0 Escape
wait_for "^Samples: [^,]*, Event count \(approx\.\): [0-9]+$" "ESC did not zoom out"
rows | grep -q hot_lib_loop || fail "the library's rows are not back: $(pane)"
# '/': only the symbols containing the string.
in_tmux send-keys -t 0 / h o t _ l i b Enter
wait_for "^Samples: .*, Symbol: hot_lib$" "'/hot_lib' did not filter"
[ "$(rows | wc -l)" = 2 ] || fail "not one hot_lib_loop row per command: $(pane)"
rows | grep -v '\[\.\] hot_lib_loop$' && fail "rows of other symbols with /hot_lib"
in_tmux send-keys -t 0 / BSpace BSpace BSpace BSpace BSpace BSpace BSpace Enter
wait_for "^Samples: [^,]*, Event count \(approx\.\): [0-9]+$" "an empty '/' did not clear the filter"
rows | grep -q workload_hot_a || fail "the rows are not back after the filter: $(pane)"
# '?': the keys.
in_tmux send-keys -t 0 '?'
wait_for "zoom into the entry's thread" "'?' showed no help"
pane | grep -q "only symbols containing a string" || fail "the help lacks '/': $(pane)"
in_tmux send-keys -t 0 x
wait_gone "zoom into the entry's thread" "a key did not close the help"
# A smaller terminal: drawn again to its size, status on its last line.
in_tmux resize-window -t 0 -x 100 -y 30
i=0
while ! pane | sed -n 30p | grep -q "Press '?' for help"; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "not drawn again at 30 lines: $(pane)"
	sleep 0.2
done
[ "$(plain_rows | head -n 1)" = "$(echo "$first" | sed 's/^[-+]/ /' | cut -c1-100)" ] ||
	fail "the first row after the resize: $(rows | head -n 1)"
in_tmux send-keys -t 0 Escape
wait_exit "ESC" "$browser_lines"
in_tmux resize-window -t 0 -x 160 -y 40

# A crash: the terminal given back, then the crash's own end (SIGSEGV).
start_report -i "$data"
wait_for "^$main_title$" "no title before the crash"
pid=$(pgrep -f "^$bin/perf report -i $data\$" | head -n 1)
[ -n "$pid" ] || fail "no perf report process to crash"
kill -SEGV "$pid"
wait_ended SIGSEGV
[ "$(cat "$tmpdir/rc")" = 139 ] ||
	fail "perf report exited $(cat "$tmpdir/rc") on SIGSEGV, not as killed by it (139)"
cmp -s "$tmpdir/stty.before" "$tmpdir/stty.after" ||
	fail "the terminal was left changed by the crash: $(diff "$tmpdir/stty.before" "$tmpdir/stty.after")"
[ "$(in_tmux display -p -t 0 '#{alternate_on}')" = 0 ] ||
	fail "the alternate screen is still on after the crash"

# ---- two events: TAB and shift-TAB, then Ctrl-C ------------------------
start_report -i "$events"
wait_for "^Samples: [0-9]+K? of event 'cpu-clock'" "no cpu-clock title"
in_tmux send-keys -t 0 Tab
wait_for "^Samples: [0-9]+K? of event 'task-clock'" "TAB did not show task-clock"
rows | grep -q 'workload_hot_a$' || fail "task-clock's rows: $(pane)"
in_tmux send-keys -t 0 BTab
wait_for "^Samples: [0-9]+K? of event 'cpu-clock'" "shift-TAB did not go back"
in_tmux send-keys -t 0 C-c
wait_exit "Ctrl-C" "$browser_lines"
grep -q '^perf: Interrupt' "$tmpdir/perf.err" ||
	fail "Ctrl-C: not said: $(cat "$tmpdir/perf.err")"
exit 0
