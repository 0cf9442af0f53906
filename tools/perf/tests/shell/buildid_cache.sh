#!/bin/sh
# perf buildid-cache keeps the cache as Linux perf does, and report and script read it
. "$(dirname "$0")/lib/common.sh"
need_linux_perf

# The cache is $HOME/.debug unless a perf config says otherwise: read none.
export PERF_CONFIG=/dev/null
ours_home=$tmpdir/ours-home
linux_home=$tmpdir/linux-home
mkdir -p "$ours_home" "$linux_home" "$tmpdir/t" || fail "cannot make the homes"

ours() {
	HOME=$ours_home "$PERF" buildid-cache "$@"
}

linux() {
	HOME=$linux_home "$LINUX_PERF" buildid-cache "$@"
}

# Each entry of a cache: type, path, and the link's target, or a file's
# size and mode.  Directories' own sizes depend on their history.
tree() {
	(cd "$1" && find . \( -type l -printf '%y %p -> %l\n' \) -o \
		\( -type f -printf '%y %p %s %m\n' \) -o -printf '%y %p %m\n' | sort)
}

same_tree() {
	tree "$ours_home" > "$tmpdir/ours.tree"
	tree "$linux_home" > "$tmpdir/linux.tree"
	diff -u "$tmpdir/linux.tree" "$tmpdir/ours.tree" ||
		fail "the caches differ after buildid-cache $*"
}

# Both tools do the same to their own cache: both succeed, same trees.
both() {
	ours "$@" > "$tmpdir/ours.out" 2> "$tmpdir/ours.err" ||
		fail "our buildid-cache $* exited $?: $(cat "$tmpdir/ours.err")"
	linux "$@" > "$tmpdir/linux.out" 2> "$tmpdir/linux.err" ||
		fail "Linux perf buildid-cache $* exited $?: $(cat "$tmpdir/linux.err")"
	diff -u "$tmpdir/linux.out" "$tmpdir/ours.out" ||
		fail "buildid-cache $* printed something else than Linux perf"
	same_tree "$@"
}

# -l of both tools on both caches: all four the same.
same_list() {
	ours -l > "$tmpdir/ours.l" && linux -l > "$tmpdir/linux.l" ||
		fail "-l failed"
	diff -u "$tmpdir/linux.l" "$tmpdir/ours.l" || fail "-l differs $1"
	HOME=$linux_home "$PERF" buildid-cache -l > "$tmpdir/cross.l" ||
		fail "our -l of Linux perf's cache failed"
	diff -u "$tmpdir/linux.l" "$tmpdir/cross.l" ||
		fail "our -l of Linux perf's cache differs $1"
	HOME=$ours_home "$LINUX_PERF" buildid-cache -l > "$tmpdir/cross.l"
	diff -u "$tmpdir/ours.l" "$tmpdir/cross.l" ||
		fail "Linux perf's -l of our cache differs $1"
}

copy_workload_binaries
bin=$(realpath "$tmpdir/bin")
t=$(realpath "$tmpdir/t")
cp /bin/true "$t/true" && cp /bin/true "$t/true2" && cp /bin/ls "$t/ls" ||
	fail "cannot copy /bin/true and /bin/ls"
# The dynamic loader: its debug info, when installed, is cached too.
ld=$(ldd /bin/true | awk '/ld-linux/ { print $1 }')
[ -n "$ld" ] && cp "$ld" "$t/ld.so" && list="$t/ld.so," || list=
list="$list$bin/perf,$bin/libperf-hot.so,$t/true"

both -a "$list"
same_list "after -a"
id=$(readelf -n "$bin/perf" | awk '/Build ID/ { print $3 }')
grep -qx "$id $bin/perf" "$tmpdir/ours.l" ||
	fail "-l does not list $id $bin/perf: $(cat "$tmpdir/ours.l")"
[ -f "$ours_home/.debug$bin/perf/$id/elf" ] || fail "no $bin/perf/$id/elf in the cache"
[ "$(readlink "$ours_home/.debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)")" = \
	"../..$bin/perf/$id" ] || fail "the link of $id does not lead to ../..$bin/perf/$id"
# Again: nothing changes.  A second path to the same build: its own
# directory, and the link stays with the first.
both -a "$list"
both -a "$t/true2"
same_list "after adding a copy"
both -r "$t/true"
same_list "after -r"
grep -q " $t/true\$" "$tmpdir/ours.l" && fail "-r left $t/true listed"
# Two builds kept for one path, both purged.
both -a "$t/true"
rm "$t/true" && cp "$t/ls" "$t/true" || fail "cannot replace $t/true"
both -a "$t/true"
[ "$(ls "$ours_home/.debug$t/true" | wc -l)" = 2 ] || fail "not two builds under $t/true"
both -v -p "$t/true"
both -u "$bin/libperf-hot.so"
same_list "after -p and -u"

# Errors: a missing file, a file that is not ELF, an object without a
# build id.  Linux perf warns and exits 0; this perf exits 1.
echo text > "$t/text"
cp /bin/true "$t/noid" && objcopy --remove-section .note.gnu.build-id "$t/noid" ||
	fail "cannot make an object without a build id"
for f in "$t/nosuch:No such file" "$t/text:not an ELF" "$t/noid:no build id"; do
	ours -a "${f%%:*}" > /dev/null 2> "$tmpdir/err" && fail "-a ${f%%:*} succeeded"
	grep "${f%%:*}" "$tmpdir/err" | grep -q "${f#*:}" ||
		fail "-a ${f%%:*}: $(cat "$tmpdir/err")"
done
same_tree "the errors"
for opts in "" "-l -a $t/ls"; do
	# shellcheck disable=SC2086
	ours $opts > /dev/null 2>&1
	rc=$?
	# shellcheck disable=SC2086
	linux $opts > /dev/null 2>&1
	[ $rc = $? ] || fail "buildid-cache $opts exits $rc, Linux perf $?"
done
# Elsewhere than ~/.debug: buildid.dir of the config, perf --buildid-dir.
for tool in ours linux; do
	p=$PERF
	[ $tool = linux ] && p=$LINUX_PERF
	printf '[BuildID]\n\tdir = "%s" # a comment\n' "$tmpdir/cfg-$tool" > "$tmpdir/$tool.cfg"
	PERF_CONFIG=$tmpdir/$tool.cfg HOME=$tmpdir/t "$p" buildid-cache -a "$t/ls" ||
		fail "$tool: -a with buildid.dir failed"
	HOME=$tmpdir/t "$p" --buildid-dir "$tmpdir/opt-$tool" buildid-cache -a "$t/ls" ||
		fail "$tool: --buildid-dir failed"
done
[ -d "$tmpdir/t/.debug" ] && fail "$tmpdir/t/.debug made despite buildid.dir or --buildid-dir"
for d in cfg opt; do
	[ -n "$(tree "$tmpdir/$d-ours")" ] || fail "nothing in $tmpdir/$d-ours"
	[ "$(tree "$tmpdir/$d-ours")" = "$(tree "$tmpdir/$d-linux")" ] ||
		fail "$d: the caches differ"
done
ours -k /proc/kcore 2> "$tmpdir/err" && fail "-k was accepted"
grep -q "kcore is not supported" "$tmpdir/err" || fail "-k: $(cat "$tmpdir/err")"

# End to end: a profile of a binary since stripped or replaced still
# has its symbols, from the cache, as in Linux perf.
need_root
need_sampling
export HOME="$tmpdir/e2e-home"
mkdir -p "$HOME"
wl="$bin/perf test -w cpuloop 0.3"
# shellcheck disable=SC2086
"$PERF" record -q -o "$tmpdir/ours.data" -- $wl 2> /dev/null ||
	fail "our record failed"
# shellcheck disable=SC2086
"$LINUX_PERF" record -q -N -o "$tmpdir/linux.data" -- $wl 2> /dev/null ||
	fail "Linux perf record failed"
for f in ours linux; do
	"$PERF" buildid-cache -M "$tmpdir/$f.data" > "$tmpdir/ours.m" ||
		fail "-M $f.data failed"
	"$LINUX_PERF" buildid-cache -M "$tmpdir/$f.data" > "$tmpdir/linux.m" 2> /dev/null
	diff -u "$tmpdir/linux.m" "$tmpdir/ours.m" || fail "-M $f.data differs"
	grep -q " $bin/perf\$" "$tmpdir/ours.m" || fail "-M $f.data misses $bin/perf"
done
"$PERF" buildid-cache -a "$bin/perf,$bin/libperf-hot.so" || fail "-a of the workload failed"
for f in ours linux; do
	"$PERF" buildid-cache -M "$tmpdir/$f.data" > "$tmpdir/ours.m"
	"$LINUX_PERF" buildid-cache -M "$tmpdir/$f.data" > "$tmpdir/linux.m" 2> /dev/null
	diff -u "$tmpdir/linux.m" "$tmpdir/ours.m" || fail "-M $f.data differs after -a"
	grep -q " $bin/perf\$" "$tmpdir/ours.m" && fail "-M $f.data still lists $bin/perf"
done

# A new file where the workload was (a new inode: the cache's elf is a
# hard link to the old one).
replace() {
	cp "$1" "$bin/perf.new" && mv "$bin/perf.new" "$bin/perf" ||
		fail "cannot replace $bin/perf"
}

# The workload's objects only: its clock_gettime() calls may be sampled
# in the vdso, which we resolve from our own (the same kernel's) and
# Linux perf 6.1 leaves raw in a file recorded with -N (perf-report.txt).
workload_dsos=perf,libperf-hot.so
check_symbols() {
	for f in ours linux; do
		same_report "$tmpdir/$f.data" -s sym --dsos $workload_dsos
		for s in workload_hot_a workload_hot_b hot_lib_loop; do
			grep -q "\] $s *\$" "$tmpdir/ours.txt" ||
				fail "no $s in our report of $f.data ($1)"
		done
		"$PERF" script -i "$tmpdir/$f.data" -F comm,tid,ip,sym,dso > "$tmpdir/ours.s" 2>&1 ||
			fail "our script failed on $f.data ($1)"
		"$LINUX_PERF" script -i "$tmpdir/$f.data" -F comm,tid,ip,sym,dso > "$tmpdir/linux.s" 2>&1
		sed -i '/(\[vdso\])$/d' "$tmpdir/ours.s" "$tmpdir/linux.s"
		cmp -s "$tmpdir/linux.s" "$tmpdir/ours.s" ||
			fail "script differs on $f.data ($1): $(diff "$tmpdir/linux.s" "$tmpdir/ours.s" | head)"
		grep -q workload_hot_a "$tmpdir/ours.s" || fail "no workload_hot_a in our script ($1)"
		# Without the cache the names are gone: the cache gave them.
		HOME=$tmpdir/t "$PERF" report -i "$tmpdir/$f.data" --stdio -s sym > "$tmpdir/nocache.txt" 2>&1
		grep -q workload_hot_a "$tmpdir/nocache.txt" &&
			fail "workload_hot_a found in $f.data without the cache ($1)"
	done
}

cp "$bin/perf" "$tmpdir/stripped" && strip "$tmpdir/stripped" || fail "cannot strip perf"
replace "$tmpdir/stripped"
check_symbols "stripped since"
replace /bin/true
check_symbols "replaced by /bin/true"

# Under --symfs DIR the cache is DIR/.debug, as in Linux perf.
mkdir -p "$tmpdir/symfs"
# The workload's objects only, as above: the vdso's samples differ.
same_report "$tmpdir/linux.data" -s sym --symfs "$tmpdir/symfs" \
	--dsos $workload_dsos
grep -q workload_hot_a "$tmpdir/ours.txt" && fail "--symfs: the cache in \$HOME was read"
cp -a "$HOME/.debug" "$tmpdir/symfs/" || fail "cannot copy the cache"
same_report "$tmpdir/linux.data" -s sym --symfs "$tmpdir/symfs" \
	--dsos $workload_dsos
grep -q "\] workload_hot_a *\$" "$tmpdir/ours.txt" || fail "--symfs: DIR/.debug was not read"

# A recording of another kernel: the kernel's build id in the header
# changed, and the cache holding a kallsyms of that id, as Linux perf
# record keeps it, with the hottest kernel function renamed.
kid=$("$PERF" buildid-list -i "$tmpdir/linux.data" | awk '$2 == "[kernel.kallsyms]" { print $1 }')
"$PERF" report -i "$tmpdir/linux.data" --stdio -s sym > "$tmpdir/k.txt" 2>&1
ksym=$(awk '$2 == "[k]" && $3 ~ /^[A-Za-z_][A-Za-z0-9_.]*$/ { print $3; exit }' "$tmpdir/k.txt")
if [ -n "$kid" ] && [ -n "$ksym" ]; then
	fake=1111111111111111111111111111111111111111
	perl -0777 -pe 'BEGIN { $o = pack("H*", shift); $n = pack("H*", shift) } s/\Q$o\E/$n/g' \
		"$kid" "$fake" < "$tmpdir/linux.data" > "$tmpdir/fake.data" ||
		fail "cannot patch the kernel's build id"
	kdir="$HOME/.debug/[kernel.kallsyms]/$fake"
	mkdir -p "$kdir" || fail "cannot make $kdir"
	sed "s/ \([tTwW]\) $ksym\$/ \1 cached_$ksym/" /proc/kallsyms > "$kdir/kallsyms"
	same_report "$tmpdir/fake.data" -s sym \
		--dsos "$workload_dsos,[kernel.kallsyms]"
	grep -q "\] cached_$ksym *\$" "$tmpdir/ours.txt" ||
		fail "no cached_$ksym: the cache's kallsyms was not read"
	"$PERF" buildid-cache -M "$tmpdir/fake.data" > "$tmpdir/ours.m"
	"$LINUX_PERF" buildid-cache -M "$tmpdir/fake.data" > "$tmpdir/linux.m" 2> /dev/null
	diff -u "$tmpdir/linux.m" "$tmpdir/ours.m" || fail "-M fake.data differs"
else
	echo "no kernel samples: the cached kallsyms is not checked"
fi

# The cache Linux perf record fills itself (kallsyms and vdso included)
# serves our report as well.
export HOME="$tmpdir/linux-rec-home"
mkdir -p "$HOME"
replace "$PERF"
# shellcheck disable=SC2086
"$LINUX_PERF" record -q -o "$tmpdir/linux.data" -- $wl 2> /dev/null ||
	fail "Linux perf record failed"
replace /bin/true
same_report "$tmpdir/linux.data" -s sym
grep -q "\] workload_hot_a *\$" "$tmpdir/ours.txt" ||
	fail "no workload_hot_a in our report with Linux perf's own cache"
echo ok
