# SPDX-License-Identifier: GPL-2.0
# Shared by scripts/kernel-*, scripts/vm-run and scripts/series; sourced,
# not run.  It knows where things live under build/ and how our files
# become a Linux 6.1 tree:
#
#   build/linux-6.1-pristine/  the tarball, extracted once and imported into
#                              git (one commit): the base of the series and
#                              the reference for every patched file
#   build/linux-6.1/           the source tree we build: pristine + our
#                              in-tree files + kernel/patches/*.patch
#   build/kbuild/              O= object tree of the test kernel
#   build/kbuild-debug/        O= object tree of the debug variant
#   build/kernel-state/        what the last sync wrote (to spot hand edits)
#
# Nothing here runs git in the repository itself: every git command below
# runs inside build/, and GIT_CEILING_DIRECTORIES keeps git from walking
# up into the repository from a directory under build/ that is no repo.

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=${PERF_BUILD_DIR:-$top/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)
export GIT_CEILING_DIRECTORIES=$top:$build

KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KARCH=x86_64
pristine=$build/linux-6.1-pristine
ksrc=$build/linux-6.1
kstate=$build/kernel-state
patchdir=$top/kernel/patches
configdir=$top/kernel/configs

# Our files that live at their in-tree paths; files or directories.
INTREE_PATHS="
kernel/perf_counter
arch/x86/kernel/cpu/perf_counter.c
arch/x86/kernel/cpu/perf_counter.h
arch/x86/kernel/cpu/perf_counter_amd.c
arch/x86/kernel/cpu/perf_counter_intel.c
arch/x86/kernel/cpu/perf_counter_model.c
arch/x86/kernel/cpu/perf_counter_test.c
include/uapi/linux/perf_counter.h
include/linux/perf_counter.h
Documentation/perf_counter
tools/testing/selftests/perf_counter
"

# ccache: one cache for every tree under build/.  base_dir turns the
# absolute source paths of O= builds into relative ones, so the tree of
# 'make series' (laid out like build/linux-6.1 + build/kbuild) hits the
# objects the main build cached.
export CCACHE_BASEDIR=$build
export CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=* -ffile-prefix-map=*'
# depend mode: a miss costs one compiler run, not a preprocessor run more
export CCACHE_DEPEND=1
KCC="ccache gcc"
command -v ccache >/dev/null 2>&1 || KCC=gcc

# Fixed build identity: the version banner does not change between builds.
export KBUILD_BUILD_USER=perf_counter
export KBUILD_BUILD_HOST=vmcheck
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-"Thu Jan  1 00:00:00 UTC 1970"}

KJOBS=${KERNEL_JOBS:-2}

die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

note() {
	echo "$(basename "$0"): $*"
}

now() {
	date +%s
}

# Serialise everything that writes the shared source tree (fd 9), held
# until the script ends or unlock_tree.
lock_tree() {
	mkdir -p "$kstate"
	exec 9>"$kstate/lock"
	flock 9
}

unlock_tree() {
	exec 9>&-
}

tarball_id() {
	stat -c '%s %Y' "$KERNEL_TARBALL"
}

# Extract the tarball and import it into git, once.  A changed tarball (a
# new Debian upload) starts everything derived from it afresh.
ensure_pristine() {
	local id tmp ver

	[ -r "$KERNEL_TARBALL" ] ||
		die "$KERNEL_TARBALL missing: install linux-source-6.1 (scripts/install-deps)"
	id=$(tarball_id)
	if [ -f "$kstate/pristine.id" ] && [ "$(cat "$kstate/pristine.id")" = "$id" ] &&
	   [ -d "$pristine/.git" ]; then
		return 0
	fi
	note "importing $KERNEL_TARBALL into $pristine (once)"
	rm -rf "$pristine" "$ksrc" "$build"/kbuild "$build"/kbuild-debug "$kstate"
	mkdir -p "$kstate"
	tmp=$pristine.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -C "$tmp" --strip-components=1 -xJf "$KERNEL_TARBALL" ||
		die "cannot extract $KERNEL_TARBALL"
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
	(
		cd "$tmp" &&
		git init -q &&
		git add -A -f &&
		GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
		git -c user.name="linux-source-6.1" -c user.email="linux-source@debian.invalid" \
			commit -q -m "Linux $(make -s kernelversion) (Debian linux-source-6.1 $ver)" &&
		git tag pristine
	) || die "git import of the pristine tree failed"
	mv "$tmp" "$pristine"
	echo "$id" >"$kstate/pristine.id"
}

# The build tree: a plain copy of the pristine tree (no .git), made once.
ensure_ksrc() {
	ensure_pristine
	[ -f "$kstate/ksrc.ok" ] && [ -d "$ksrc" ] && return 0
	note "creating $ksrc"
	rm -rf "$ksrc" "$kstate/synced"
	mkdir -p "$ksrc"
	git -C "$pristine" archive pristine | tar -C "$ksrc" -xf - ||
		die "cannot populate $ksrc"
	touch "$kstate/ksrc.ok"
}

# Files of ours at in-tree paths, relative to the repository top, sorted.
# Editor leftovers, objects and names in a .gitignore of their directory
# are not ours.
intree_files() {
	local p

	for p in $INTREE_PATHS; do
		[ -e "$top/$p" ] || continue
		(cd "$top" && find "$p" -type f)
	done | while read -r f; do
		case "${f##*/}" in
		*~ | .*.sw? | *.o | *.a | *.so | *.d | *.orig | *.rej | .*.cmd) continue ;;
		esac
		gi=$top/$(dirname "$f")/.gitignore
		if [ -f "$gi" ] && grep -qxF -e "${f##*/}" -e "/${f##*/}" "$gi"; then
			continue
		fi
		echo "$f"
	done | LC_ALL=C sort
}

# kernel/patches/*.patch in apply order.
patch_files() {
	local f

	for f in "$patchdir"/*.patch; do
		[ -f "$f" ] && echo "$f"
	done
}

# Is repository path $1 one of ours (under INTREE_PATHS)?
is_ours() {
	local p

	for p in $INTREE_PATHS; do
		case $1 in
		"$p" | "$p"/*) return 0 ;;
		esac
	done
	return 1
}

# The file diffs of a patch whose files are ours ($2 = 1) or 6.1's ($2 = 0).
select_diff() {
	sed -n '/^diff /,$p' "$1" |
	awk -v want="$2" -v paths="$INTREE_PATHS" '
	BEGIN { n = split(paths, p, /[ \n]+/) }
	/^diff --git / {
		f = $3
		sub(/^a\//, "", f)
		mine = 0
		for (i = 1; i <= n; i++)
			if (p[i] != "" && (f == p[i] || index(f, p[i] "/") == 1))
				mine = 1
		keep = mine == want
	}
	keep { print }'
}

# The diff part of a patch file that changes 6.1 files; empty when the
# patch only adds or changes files of ours.
patch_diff() {
	select_diff "$1" 0
}

# The diff part that changes files of ours brought in by an earlier patch.
# The repository holds each file as the last patch leaves it; the tree
# after an earlier patch is found by undoing the later patches' diffs
# (our_states).  The build tree never applies these: it has our files.
ours_diff() {
	select_diff "$1" 1
}

# Fill directory $1 with one directory per patch, named after it, that
# holds our files as the series has them after that patch; with $2, a
# patch's name, only for that patch and those after it.
our_states() {
	local dir=$1 stop=${2:-} cur=$1/.cur p pn f d

	rm -rf "$dir"
	mkdir -p "$cur"
	for f in $(intree_files); do
		mkdir -p "$cur/$(dirname "$f")"
		cp -p "$top/$f" "$cur/$f"
	done
	for p in $(patch_files | sort -r); do
		pn=${p##*/}
		cp -a "$cur" "$dir/$pn"
		[ "$pn" = "$stop" ] && break
		d=$(ours_diff "$p")
		if [ -n "$d" ] && ! printf '%s\n' "$d" |
			(cd "$cur" && git apply -R --whitespace=nowarn - 2>"$dir/.err"); then
			cat "$dir/.err" >&2
			echo "kernel/patches/$pn: its changes to our files do not undo on the files after it; regenerate them (scripts/kernel-mkpatch -o)" >&2
			return 1
		fi
		for f in $(patch_newfiles "$p"); do
			if printf '%s\n' "$d" | grep -qxF "diff --git a/$f b/$f"; then
				echo "kernel/patches/$pn: both adds and changes $f" >&2
				return 1
			fi
			rm -f "$cur/$f"
		done
	done
	rm -rf "$cur" "$dir/.err"
}

# Paths an existing-file diff touches.
patch_paths() {
	local d

	d=$(patch_diff "$1")
	[ -n "$d" ] || return 0
	printf '%s\n' "$d" | git -C "$pristine" apply --numstat - | cut -f3-
}

# "New-file: path" lines: our files a patch brings into the series.
patch_newfiles() {
	sed -n '/^diff /q; s/^New-file:[[:space:]]*//p' "$1"
}

# Apply one patch's diff to directory $2 (strict: no fuzz).
apply_diff() {
	local d

	d=$(patch_diff "$1")
	[ -n "$d" ] || return 0
	printf '%s\n' "$d" | (cd "$2" && git apply --whitespace=nowarn -)
}

# Print the pristine content of $1 into file $2; false if 6.1 lacks it.
pristine_blob() {
	git -C "$pristine" cat-file -e "pristine:$1" 2>/dev/null || return 1
	git -C "$pristine" cat-file blob "pristine:$1" >"$2"
}

# Fill directory $1 with what our managed paths should hold in the build
# tree: every file a patch touches (pristine content with all patches
# applied in order) and our in-tree files.  $1.list gets the managed
# paths; one a patch deletes is listed but absent from $1.
build_stage() {
	local stage=$1 p f

	: >"$stage.list"
	for p in $(patch_files); do
		for f in $(patch_paths "$p"); do
			echo "$f" >>"$stage.list"
			[ -e "$stage/$f" ] && continue
			mkdir -p "$stage/$(dirname "$f")"
			pristine_blob "$f" "$stage/$f" || rm -f "$stage/$f"
		done
	done
	for p in $(patch_files); do
		apply_diff "$p" "$stage" 2>"$stage.err" || {
			cat "$stage.err" >&2
			echo "kernel/patches/${p##*/} does not apply (on pristine 6.1 plus the patches before it)" >&2
			return 1
		}
	done
	for f in $(intree_files); do
		if grep -qxF "$f" "$stage.list"; then
			echo "$f: both one of our files and changed by a patch" >&2
			return 1
		fi
		if git -C "$pristine" cat-file -e "pristine:$f" 2>/dev/null; then
			echo "$f: exists in 6.1; change it with a patch in kernel/patches/ instead" >&2
			return 1
		fi
		mkdir -p "$stage/$(dirname "$f")"
		cp "$top/$f" "$stage/$f"
		echo "$f" >>"$stage.list"
	done
	LC_ALL=C sort -u -o "$stage.list" "$stage.list"
}

# Same content (or both absent)?
same_file() {
	if [ -e "$1" ] || [ -e "$2" ]; then
		[ -e "$1" ] && [ -e "$2" ] && cmp -s "$1" "$2"
	fi
}

# Bring the build tree in line with the repository: our in-tree files and
# the patched files, rewriting only what changed so that kbuild rebuilds
# only what depends on it.  A managed file that differs from what the last
# sync wrote was edited by hand in build/linux-6.1: refuse rather than
# lose the edit (KERNEL_SYNC_FORCE=1 discards such edits).
sync_ksrc() {
	local stage prev f cur want rec edited="" n=0 tmp

	ensure_ksrc
	stage=$(mktemp -d "$kstate/stage.XXXXXX")
	tmp=$stage.tmp
	if ! build_stage "$stage"; then
		rm -rf "$stage" "$stage.list" "$stage.err"
		die "cannot prepare the patched tree"
	fi
	rm -f "$stage.err"
	prev=$kstate/synced.list
	[ -f "$prev" ] || : >"$prev"

	# What the tree held for $1 after the last sync (or pristine).
	expected() {
		if grep -qxF "$1" "$prev"; then
			if [ -e "$kstate/synced/$1" ]; then
				cp "$kstate/synced/$1" "$tmp"
			else
				rm -f "$tmp"
			fi
		elif ! pristine_blob "$1" "$tmp"; then
			rm -f "$tmp"
		fi
	}

	for f in $(cat "$prev" "$stage.list" | LC_ALL=C sort -u); do
		cur=$ksrc/$f
		want=$stage/$f
		if ! grep -qxF "$f" "$stage.list"; then
			# No longer ours or patched: back to pristine.
			mkdir -p "$(dirname "$want")"
			pristine_blob "$f" "$want" || rm -f "$want"
		fi
		same_file "$cur" "$want" && continue
		expected "$f"
		if ! same_file "$cur" "$tmp"; then
			edited="$edited $f"
			[ "${KERNEL_SYNC_FORCE:-0}" = 1 ] || continue
		fi
		if [ -e "$want" ]; then
			mkdir -p "$(dirname "$cur")"
			cp "$want" "$cur"
		else
			rm -f "$cur"
		fi
		n=$((n + 1))
	done
	rm -f "$tmp"
	if [ -n "$edited" ] && [ "${KERNEL_SYNC_FORCE:-0}" != 1 ]; then
		rm -rf "$stage" "$stage.list"
		echo "$(basename "$0"): edited by hand in $ksrc:" >&2
		for f in $edited; do
			echo "	$f" >&2
		done
		cat >&2 <<-MSG
		Record edits of 6.1 files with scripts/kernel-mkpatch (see
		kernel/patches/README); edit our own files in the repository, not
		in build/.  KERNEL_SYNC_FORCE=1 throws the edits away.
		MSG
		exit 1
	fi
	# Keep only files still managed, as the next sync's reference.
	for f in $(cat "$prev"); do
		grep -qxF "$f" "$stage.list" || rm -f "$stage/$f"
	done
	rm -rf "$kstate/synced"
	mv "$stage" "$kstate/synced"
	mv "$stage.list" "$prev"
	[ $n -gt 0 ] && note "synced $n file(s) into $ksrc"
	warn_unmanaged
	return 0
}

# Files changed in the build tree that no patch or file of ours accounts
# for would silently go into the kernel but not into the series.
warn_unmanaged() {
	local f tmp=$kstate/unmanaged.tmp

	find "$ksrc" -type f -newer "$kstate/ksrc.ok" | sed "s|^$ksrc/||" |
	LC_ALL=C sort | comm -23 - "$kstate/synced.list" | while read -r f; do
		if pristine_blob "$f" "$tmp" && cmp -s "$tmp" "$ksrc/$f"; then
			continue
		fi
		echo "$(basename "$0"): warning: $ksrc/$f changed outside kernel/patches/" >&2
	done
	rm -f "$tmp"
}

# Config fragments of a variant ("default" or "debug"), in merge order:
# every kernel/configs/*.config but debug.config, which only the debug
# variant adds (last, so that it wins).
config_fragments() {
	local f

	for f in "$configdir"/*.config; do
		[ -f "$f" ] || continue
		[ "${f##*/}" = debug.config ] && continue
		echo "$f"
	done
	if [ "$1" = debug ]; then
		[ -f "$configdir/debug.config" ] || die "kernel/configs/debug.config missing"
		echo "$configdir/debug.config"
	fi
}

# kbuild with our fixed arguments: kmake SRC OBJ TARGET...
kmake() {
	local src=$1 obj=$2

	shift 2
	nice -n 10 make -C "$src" O="$obj" ARCH="$KARCH" CC="$KCC" HOSTCC="$KCC" \
		-j"$KJOBS" "$@"
}

# Every option the fragments ask for must have that value in the final
# .config (the last fragment to name an option wins).  Kconfig drops
# requests whose dependencies are unmet without a word, so say which.
check_config() {
	local cfg=$1

	shift
	awk '
	FNR == NR {
		if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) {
			sym = substr($0, 1, RLENGTH - 1); have[sym] = substr($0, RLENGTH + 1)
		}
		next
	}
	/^CONFIG_[A-Za-z0-9_]+=/ {
		eq = index($0, "="); want[substr($0, 1, eq - 1)] = substr($0, eq + 1); next
	}
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "n" }
	END {
		bad = 0
		for (s in want) {
			got = (s in have) ? have[s] : "n"
			if (got != want[s]) {
				printf "\t%s=%s (the .config has %s)\n", s, want[s], got
				bad++
			}
		}
		exit bad != 0
	}' "$cfg" "$@" | LC_ALL=C sort
	return "${PIPESTATUS[0]}"
}

# The stamp of what a .config derives from: fragments, patches (Kconfig
# changes) and our Kconfig files.
config_stamp() {
	{
		for f in "$@"; do
			echo "$f"
			cat "$f"
		done
		for f in $(patch_files); do
			cat "$f"
		done
		find "$top/kernel/perf_counter" -name 'Kconfig*' -type f -exec cat {} + 2>/dev/null
		echo "$KCC"
	} | sha256sum | cut -d' ' -f1
}

# Generate OBJ/.config: tinyconfig, then our fragments merged on top with
# the kernel's merge_config.sh, then olddefconfig for the rest.  Skipped
# when nothing it derives from changed.
make_config() {
	local src=$1 obj=$2 variant=$3 frags stamp log

	frags=$(config_fragments "$variant")
	[ -n "$frags" ] || die "no config fragments in kernel/configs/"
	stamp=$(config_stamp $frags)
	if [ -f "$obj/.config" ] && [ -f "$obj/.perf_counter-config" ] &&
	   [ "$(cat "$obj/.perf_counter-config")" = "$stamp" ]; then
		return 0
	fi
	mkdir -p "$obj"
	log=$obj/config.log
	note "configuring $obj: tinyconfig +$(for f in $frags; do printf ' %s' "${f##*/}"; done)"
	{
		kmake "$src" "$obj" tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags &&
		kmake "$src" "$obj" olddefconfig
	} >"$log" 2>&1 || {
		tail -n 30 "$log" >&2
		die "configuration failed (log: $log)"
	}
	# shellcheck disable=SC2086
	if ! check_config "$obj/.config" $frags >"$log.missing"; then
		echo "$(basename "$0"): options the fragments want but $obj/.config lacks" \
		     "(unmet dependencies?):" >&2
		cat "$log.missing" >&2
		rm -f "$obj/.perf_counter-config"
		exit 1
	fi
	echo "$stamp" >"$obj/.perf_counter-config"
}
