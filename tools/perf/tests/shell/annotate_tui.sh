#!/bin/sh
# perf annotate in a terminal (tmux): the hot loop's instructions, source lines hidden and shown, the next symbol, a clean exit
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/annotate.sh"
need_root
need_sampling
command -v objdump > /dev/null || skip "objdump missing (binutils): perf annotate disassembles with it"
command -v tmux > /dev/null 2>&1 ||
	skip "tmux not installed: the browser needs a terminal to be driven in"

copy_workload_binaries
bin=$tmpdir/bin
data=$tmpdir/perf.data
"$bin/perf" record -q -e cpu-clock -F 4000 -o "$data" -- "$bin/perf" test -w cpuloop 0.5 \
	> /dev/null 2> "$tmpdir/record.err" || fail "perf record failed: $(cat "$tmpdir/record.err")"
. "$(dirname "$0")/lib/tui.sh"
browser_lines='^Annotate |q: back'

# The title, and the loop's instructions with its samples.
start_perf annotate -i "$data" workload_hot_a
wait_for '^Annotate workload_hot_a  \(perf\)  [0-9]+ samples of event .cpu-clock.$' "no title"
[ "$(in_tmux display -p -t 0 '#{alternate_on}')" = 1 ] ||
	fail "the browser is not on the alternate screen"
pane | screen_insns > "$tmpdir/screen.ins"
share=$(loop_share < "$tmpdir/screen.ins")
awk -v s="$share" 'BEGIN { exit !(s >= 90) }' ||
	fail "$share% of the samples in the loop on the screen: $(pane)"
# The instructions are those of --stdio, with their percentages.
"$bin/perf" annotate -i "$data" --stdio workload_hot_a > "$tmpdir/stdio.txt" 2>&1 ||
	fail "perf annotate --stdio failed: $(cat "$tmpdir/stdio.txt")"
insns "$tmpdir/stdio.txt" | awk '{ $1 = $1; print }' > "$tmpdir/stdio.ins"
awk '{ $1 = $1; print }' "$tmpdir/screen.ins" > "$tmpdir/screen.norm"
cmp -s "$tmpdir/stdio.ins" "$tmpdir/screen.norm" ||
	fail "the screen's instructions are not --stdio's: $(diff "$tmpdir/stdio.ins" "$tmpdir/screen.norm")"
# A jump lands where a "->" says.
target=$(pane | grep -E '^ +[0-9.]+ \^  ' | awk '{ print $5 }')
pane | grep -Eq "^ +[0-9.]+ -> +$target:  " ||
	fail "the loop's start ($target) is not marked as a jump target: $(pane)"
# 's': the source lines go, and come back.
src='workload_sink \+= i \^ \(i >> 3\);$'
if pane | grep -Eq "$src"; then
	in_tmux send-keys -t 0 s
	wait_gone "$src" "'s' did not hide the source lines"
	in_tmux send-keys -t 0 s
	wait_for "$src" "'s' again did not show the source lines"
fi
# '?': the keys.
in_tmux send-keys -t 0 '?'
wait_for 'the hottest instruction' "'?' showed no help"
in_tmux send-keys -t 0 x
in_tmux send-keys -t 0 q
wait_exit "'q'" "$browser_lines"

# Without a symbol: the hottest first, RIGHT to the next one and back.
start_perf annotate -i "$data"
wait_for '^Annotate workload_hot_a ' "the hottest symbol is not first"
in_tmux send-keys -t 0 Right
wait_for '^Annotate (workload_hot_b|hot_lib_loop) ' "RIGHT did not go to the next hottest"
in_tmux send-keys -t 0 Left
wait_for '^Annotate workload_hot_a ' "LEFT did not come back"
in_tmux send-keys -t 0 Escape
wait_exit "ESC" "$browser_lines"

# Not on a terminal: the --stdio text.
"$bin/perf" annotate -i "$data" workload_hot_a < /dev/null > "$tmpdir/piped.txt" 2>&1
cmp -s "$tmpdir/stdio.txt" "$tmpdir/piped.txt" ||
	fail "perf annotate into a pipe is not --stdio: $(diff "$tmpdir/stdio.txt" "$tmpdir/piped.txt" | head)"
echo "ok: $share% of the samples in the loop, keys and exits as expected"
