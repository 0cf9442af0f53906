// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols and machine state: ELF loading checked against where the
 * dynamic loader really put functions (this binary, libperf-hot.so, and
 * small objects built here), kallsyms, --symfs, separate debug info, and
 * threads and maps rebuilt from synthesized records.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "tests.h"
#include "../util/build-id.h"
#include "../util/dso.h"
#include "../util/machine.h"
#include "../util/srcline.h"
#include "../util/symbol.h"

/* Helpers: files, commands, and where this process has its code */

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_tree(const char *dir)
{
	if (*dir)
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_tmpdir(char *buf, size_t size)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(buf, size, "%s/perf-symtest-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(buf) ? 0 : -errno;
}

static int run(struct test_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A shell command; its output is shown with -v only. */
static int run(struct test_ctx *ctx, const char *fmt, ...)
{
	char cmd[4 * PATH_MAX];
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 16, fmt, ap);
	va_end(ap);
	len = strlen(cmd);
	if (!ctx->verbose)
		snprintf(cmd + len, sizeof(cmd) - len, " >/dev/null 2>&1");
	pr_test(ctx, "    $ %s\n", cmd);
	fflush(stdout);
	return system(cmd);
}

static bool have_tool(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	close(in);
	close(out);
	return n == 0 ? 0 : -EIO;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* This binary, and libperf-hot.so beside it. */
static int perf_path(char *buf, size_t size, const char *sibling)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (!sibling)
		return 0;
	slash = strrchr(buf, '/');
	if (!slash || snprintf(slash + 1, size - (slash + 1 - buf), "%s",
			       sibling) >= (int)(size - (slash + 1 - buf)))
		return -ENAMETOOLONG;
	return 0;
}

struct self_map {
	u64 start;
	u64 end;
	u64 pgoff;
	char path[PATH_MAX];
};

/* The line of /proc/self/maps that covers @addr. */
static int self_map(u64 addr, struct self_map *sm)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/self/maps", "r");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		int pos = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s%n", &s, &e, &off,
			   &pos) < 3 || addr < s || addr >= e)
			continue;
		sm->start = s;
		sm->end = e;
		sm->pgoff = off;
		snprintf(sm->path, sizeof(sm->path), "%s",
			 line + pos + strspn(line + pos, " "));
		sm->path[strcspn(sm->path, "\n")] = '\0';
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

/* Code addresses as the kernel reports them. */
#define fn_addr(fn) ((u64)(uintptr_t)(fn))

/*
 * A function of this process must come back, by name and entry, from
 * the symbols of the file it was mapped from.
 */
static int check_function(struct test_ctx *ctx, u64 ip, const char *name)
{
	struct self_map sm;
	const struct symbol *sym;
	struct dso *dso;
	u64 rel;

	TEST_ASSERT(ctx, !self_map(ip, &sm), "%s is not mapped", name);
	rel = ip - sm.start + sm.pgoff;
	dso = dsos__findnew(sm.path);
	TEST_ASSERT(ctx, dso, "no dso for %s", sm.path);
	sym = dso__find_symbol(dso, rel);
	pr_test(ctx, "    %s: %#llx in %s -> %s\n", name, (unsigned long long)rel,
		sm.path, sym ? sym->name : "(none)");
	TEST_ASSERT(ctx, sym && !strcmp(sym->name, name) && sym->start == rel,
		    "%#llx in %s resolved to %s at %#llx, not %s",
		    (unsigned long long)rel, sm.path, sym ? sym->name : "nothing",
		    sym ? (unsigned long long)sym->start : 0ULL, name);
	TEST_ASSERT(ctx, dso__find_symbol(dso, rel + 1) == sym &&
		    sym->end > sym->start, "%s has no extent", name);
	return TEST_OK;
}

static int check_named(struct test_ctx *ctx, struct dso *dso, const char *name)
{
	const struct symbol *sym;

	dso__load(dso);
	sym = symtab__find_by_name(&dso->symtab, name);
	TEST_ASSERT(ctx, sym && sym->end > sym->start, "%s lacks %s",
		    dso->long_name, name);
	TEST_ASSERT(ctx, dso__find_symbol(dso, sym->start) == sym &&
		    dso__find_symbol(dso, sym->end - 1) == sym,
		    "%s does not cover its own range", name);
	return TEST_OK;
}

/*
 * The srcline of code without line tables: GCC's crtstuff.c functions in
 * perf itself are named after the file the symbol table gives them, as
 * binutils' addr2line (and so Linux perf) names them.
 */
static int check_srcline_without_lines(struct test_ctx *ctx, struct dso *dso)
{
	const struct symbol *sym = symtab__find_by_name(&dso->symtab,
							"frame_dummy");
	struct srcline_cache *c;
	const struct srcline *l;
	int ret = TEST_OK;

	if (!sym)
		return test_skip(ctx, "no frame_dummy (crtstuff.c) in %s",
				 dso->long_name);
	c = srcline_cache__new();
	TEST_ASSERT(ctx, c, "no memory");
	l = srcline__find(c, dso, sym->start, sym->name, sym->start);
	pr_test(ctx, "    frame_dummy: %s\n", l ? l->line : "(none)");
	if (!l || strcmp(l->line, "crtstuff.c:0") || strcmp(l->file, "crtstuff.c")) {
		pr_test(ctx, "    frame_dummy's srcline is not crtstuff.c:0\n");
		ret = TEST_FAIL;
	}
	/*
	 * A PLT entry is in no function of the symbol table: addr2line
	 * knows nothing there, and Linux perf shows "NAME@plt+OFFSET".
	 */
	sym = symtab__find_by_name(&dso->symtab, "getenv@plt");
	l = sym ? srcline__find(c, dso, sym->start + 6, sym->name, sym->start) :
		  NULL;
	pr_test(ctx, "    getenv@plt+6: %s\n", l ? l->line : "(none)");
	if (!l || strcmp(l->line, "getenv@plt+6") || strcmp(l->file, "")) {
		pr_test(ctx, "    getenv@plt+6's srcline is not getenv@plt+6\n");
		ret = TEST_FAIL;
	}
	srcline_cache__delete(c);
	return ret;
}

/* Builds a shared object (or, with "-no-pie"/"-pie", a program) from C. */
static int build(struct test_ctx *ctx, const char *dir, const char *name,
		 const char *src, const char *flags)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.c", dir, name);
	if (write_file(path, src))
		return -1;
	return run(ctx, "cc -O1 %s -o %s/%s %s", flags, dir, name, path);
}

/* (a) ELF symbols */

static const char alias_src[] =
	"#include <stdio.h>\n"
	"void f1(void) { puts(\"f1\"); }\n"
	"extern void f1_weak_longer_name(void) __attribute__((weak, alias(\"f1\")));\n"
	"static void f1_local(void) __attribute__((alias(\"f1\"), used));\n"
	"static __attribute__((noinline, used)) int g_local_longer(int x) { return x * 7; }\n"
	"extern int g(int) __attribute__((weak, alias(\"g_local_longer\")));\n"
	"int __h(int x) { return x + 2; }\n"
	"extern int h_x(int) __attribute__((alias(\"__h\")));\n"
	"int k(int x) { return x + 3; }\n"
	"extern int kk(int) __attribute__((alias(\"k\")));\n"
	"__asm__(\".text\\n.globl zsize\\n.type zsize,@function\\n"
	"zsize:\\n nop\\n nop\\n ret\\n\");\n";

/* The name Linux perf would show for an address with several aliases. */
static int check_alias(struct test_ctx *ctx, struct dso *dso, void *handle,
		       const char *lookup, const char *expect)
{
	void *fn = dlsym(handle, lookup);
	struct self_map sm;
	const struct symbol *sym;

	TEST_ASSERT(ctx, fn && !self_map(fn_addr(fn), &sm), "%s not loaded",
		    lookup);
	sym = dso__find_symbol(dso, fn_addr(fn) - sm.start + sm.pgoff);
	pr_test(ctx, "    alias %s -> %s\n", lookup, sym ? sym->name : "(none)");
	TEST_ASSERT(ctx, sym && !strcmp(sym->name, expect),
		    "%s shows as %s, not %s", lookup, sym ? sym->name : "nothing",
		    expect);
	return TEST_OK;
}

static int test_aliases(struct test_ctx *ctx, const char *dir)
{
	char path[PATH_MAX];
	const struct symbol *z, *next;
	struct dso *dso;
	void *handle;
	int ret = TEST_FAIL;

	if (build(ctx, dir, "libalias.so", alias_src, "-fPIC -shared"))
		return test_skip(ctx, "cc could not build a shared object");
	snprintf(path, sizeof(path), "%s/libalias.so", dir);
	handle = dlopen(path, RTLD_NOW);
	TEST_ASSERT(ctx, handle, "dlopen: %s", dlerror());
	dso = dsos__findnew(path);
	if (check_alias(ctx, dso, handle, "f1_weak_longer_name", "f1") ||
	    check_alias(ctx, dso, handle, "g", "g_local_longer") ||
	    check_alias(ctx, dso, handle, "__h", "h_x") ||
	    check_alias(ctx, dso, handle, "k", "kk"))
		goto out;
	z = symtab__find_by_name(&dso->symtab, "zsize");
	if (!z) {
		printf("    zsize missing\n");
		goto out;
	}
	next = z + 1;
	if (z->end <= z->start || next >= dso->symtab.syms + dso->symtab.nr ||
	    z->end != next->start) {
		printf("    zero-size zsize was not extended to the next symbol\n");
		goto out;
	}
	if (check_named(ctx, dso, "puts@plt"))
		goto out;
	ret = TEST_OK;
out:
	dlclose(handle);
	return ret;
}

/* The program prints where main is and the mapping that holds it. */
static const char where_src[] =
	"#include <stdio.h>\n"
	"int main(void)\n{\n"
	"\tunsigned long a = (unsigned long)&main, s, e, off;\n"
	"\tchar line[4096];\n"
	"\tFILE *f = fopen(\"/proc/self/maps\", \"r\");\n"
	"\twhile (f && fgets(line, sizeof(line), f))\n"
	"\t\tif (sscanf(line, \"%lx-%lx %*s %lx\", &s, &e, &off) == 3 &&\n"
	"\t\t    a >= s && a < e)\n"
	"\t\t\tprintf(\"%lx %lx %lx\\n\", a, s, off);\n"
	"\treturn 0;\n}\n";

/* ET_EXEC and PIE: the IP the kernel would report resolves to main. */
static int test_executable(struct test_ctx *ctx, const char *dir,
			   const char *name, const char *flags)
{
	char path[PATH_MAX], cmd[PATH_MAX + 8];
	unsigned long long addr, start, pgoff;
	const struct symbol *sym;
	struct dso *dso;
	FILE *p;
	int n;

	if (build(ctx, dir, name, where_src, flags))
		return test_skip(ctx, "cc %s failed", flags);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "'%s'", path);
	p = popen(cmd, "r");
	TEST_ASSERT(ctx, p, "cannot run %s", path);
	n = fscanf(p, "%llx %llx %llx", &addr, &start, &pgoff);
	pclose(p);
	TEST_ASSERT(ctx, n == 3, "%s printed no mapping", path);
	dso = dsos__findnew(path);
	sym = dso__find_symbol(dso, addr - start + pgoff);
	pr_test(ctx, "    %s: main at %#llx, map %#llx pgoff %#llx -> %s\n",
		name, addr, start, pgoff, sym ? sym->name : "(none)");
	TEST_ASSERT(ctx, sym && !strcmp(sym->name, "main") &&
		    sym->start == addr - start + pgoff, "%s: main not found", name);
	return TEST_OK;
}

static int test_built_objects(struct test_ctx *ctx)
{
	char dir[PATH_MAX];
	int ret;

	if (!have_tool("cc"))
		return test_skip(ctx, "no C compiler (cc) to build test objects");
	if (make_tmpdir(dir, sizeof(dir)))
		return test_skip(ctx, "cannot create a temporary directory");
	ret = test_aliases(ctx, dir);
	if (ret == TEST_OK)
		ret = test_executable(ctx, dir, "exec-nopie", "-no-pie -fno-pie");
	if (ret == TEST_OK)
		ret = test_executable(ctx, dir, "exec-pie", "-pie -fPIE");
	remove_tree(dir);
	return ret;
}

int test__symbols(struct test_ctx *ctx)
{
	char path[PATH_MAX];
	struct dso *perf, *lib;
	void *handle, *fn;

	TEST_ASSERT(ctx, !perf_path(path, sizeof(path), NULL), "no /proc/self/exe");
	perf = dsos__findnew(path);
	TEST_ASSERT(ctx, perf && !dso__load(perf), "no symbols in %s: %d", path,
		    perf ? perf->load_err : 0);
	pr_test(ctx, "    %s: %zu symbols\n", path, dso__nr_symbols(perf));
	if (check_function(ctx, fn_addr(test__symbols), "test__symbols") ||
	    check_function(ctx, fn_addr(workload_cpuloop), "workload_cpuloop") ||
	    check_named(ctx, perf, "workload_hot_a") ||
	    check_named(ctx, perf, "workload_hot_b"))
		return TEST_FAIL;
	TEST_ASSERT(ctx, !strcmp(perf->short_name, "perf"), "short name %s",
		    perf->short_name);
	if (check_srcline_without_lines(ctx, perf) == TEST_FAIL)
		return TEST_FAIL;

	TEST_ASSERT(ctx, !perf_path(path, sizeof(path), "libperf-hot.so"),
		    "path too long");
	handle = dlopen(path, RTLD_NOW);
	if (!handle)
		return test_skip(ctx, "%s: %s (run 'make')", path, dlerror());
	fn = dlsym(handle, "hot_lib_loop");
	TEST_ASSERT(ctx, fn, "no hot_lib_loop in %s", path);
	if (check_function(ctx, fn_addr(fn), "hot_lib_loop"))
		return TEST_FAIL;
	lib = dsos__find(path);
	TEST_ASSERT(ctx, lib && !strcmp(lib->short_name, "libperf-hot.so") &&
		    lib->bid.size == 0 && lib->symsrc, "libperf-hot.so dso");
	TEST_ASSERT(ctx, !dso__read_build_id(lib) && lib->bid.size == 20,
		    "no build id in %s", path);
	return test_built_objects(ctx);
}

/* (c) kallsyms */

static int mmap2(struct machine *m, u32 pid, u32 tid, u64 start, u64 len,
		 u64 pgoff, u32 prot, const char *file);

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t zeta_local\n"
	"ffffffff81000040 T alpha\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000200 W weak_fn\n"
	"ffffffff81000300 D some_data\n"
	"ffffffff81000400 T _etext\n"
	"ffffffffc0001000 t mod_a_fn1\t[mod_a]\n"
	"ffffffffc0000000 t mod_a_init\t[mod_a]\n"
	"ffffffffc0002000 T mod_b_fn\t[mod_b]\n"
	"ffffffffc0003000 t bpf_prog_1\t[bpf]\n";

static int expect_sym(struct test_ctx *ctx, struct symtab *st, u64 addr,
		      const char *name, u64 start, u64 end)
{
	const struct symbol *sym = symtab__find(st, addr);

	TEST_ASSERT(ctx, sym && !strcmp(sym->name, name) && sym->start == start &&
		    sym->end == end, "%#llx: %s [%#llx, %#llx), not %s [%#llx, %#llx)",
		    (unsigned long long)addr, sym ? sym->name : "nothing",
		    sym ? (unsigned long long)sym->start : 0ULL,
		    sym ? (unsigned long long)sym->end : 0ULL, name,
		    (unsigned long long)start, (unsigned long long)end);
	return TEST_OK;
}

struct module_tables {
	struct symtab st[4];
	char name[4][32];
	int nr;
};

static struct symtab *module_table(void *arg, const char *name)
{
	struct module_tables *mt = arg;

	if (mt->nr == 4)
		return NULL;
	snprintf(mt->name[mt->nr], sizeof(mt->name[0]), "%s", name);
	return &mt->st[mt->nr++];
}

static int check_kallsyms_tables(struct test_ctx *ctx, const char *path)
{
	const u64 k = 0xffffffff81000000ULL, m = 0xffffffffc0000000ULL;
	struct module_tables mt = { .nr = 0 };
	struct symtab kernel = { .nr = 0 };
	int n, i;

	n = symtab__load_kallsyms(&kernel, path, NULL, 0, module_table, &mt);
	TEST_ASSERT(ctx, n == 5, "%d kernel symbols, not 5", n);
	/*
	 * The last alias listed is the one with a size: Linux perf shows
	 * it.  Listed after symbols above it, it is sorted behind the
	 * aliases listed before them.
	 */
	if (expect_sym(ctx, &kernel, k, "startup_64", k, k + 0x40) ||
	    expect_sym(ctx, &kernel, k + 0x50, "alpha", k + 0x40, k + 0x100) ||
	    expect_sym(ctx, &kernel, k + 0x1ff, "zeta_local", k + 0x100, k + 0x200) ||
	    expect_sym(ctx, &kernel, k + 0x300, "weak_fn", k + 0x200, k + 0x400) ||
	    expect_sym(ctx, &kernel, k + 0x1000, "_etext", k + 0x400, k + 0x2000))
		return TEST_FAIL;
	TEST_ASSERT(ctx, mt.nr == 3 && !strcmp(mt.name[0], "[mod_a]") &&
		    !strcmp(mt.name[1], "[mod_b]") && !strcmp(mt.name[2], "[bpf]"),
		    "modules: %d", mt.nr);
	if (expect_sym(ctx, &mt.st[0], m + 0x10, "mod_a_init", m, m + 0x1000) ||
	    expect_sym(ctx, &mt.st[0], m + 0x1010, "mod_a_fn1", m + 0x1000, m + 0x2000) ||
	    expect_sym(ctx, &mt.st[1], m + 0x2000, "mod_b_fn", m + 0x2000, m + 0x3000) ||
	    expect_sym(ctx, &mt.st[2], m + 0x3000, "bpf_prog_1", m + 0x3000, m + 0x4000))
		return TEST_FAIL;
	TEST_ASSERT(ctx, !symtab__find(&kernel, m + 0x10) &&
		    !symtab__find(&mt.st[0], k + 0x50), "tables mixed");
	for (i = 0; i < mt.nr; i++)
		symtab__exit(&mt.st[i]);

	/* Recorded with _text 2 MiB lower: kernel symbols follow, modules not. */
	n = symtab__load_kallsyms(&kernel, path, "_text", k - 0x200000, NULL, NULL);
	TEST_ASSERT(ctx, n == 5, "relocated: %d symbols", n);
	if (expect_sym(ctx, &kernel, k - 0x200000 + 0x50, "alpha",
		       k - 0x200000 + 0x40, k - 0x200000 + 0x100))
		return TEST_FAIL;
	symtab__exit(&kernel);
	return TEST_OK;
}

static int check_kernel_resolve(struct test_ctx *ctx, const char *path)
{
	const u64 k = 0xffffffff81000000ULL, m = 0xffffffffc0000000ULL;
	struct addr_location al;
	struct machine mach;

	symbol_conf.kallsyms = path;
	TEST_ASSERT(ctx, !machine__init(&mach), "machine__init");
	machine__resolve(&mach, 5, 5, PERF_RECORD_MISC_KERNEL, k + 0x60, &al);
	TEST_ASSERT(ctx, al.map && al.sym && !strcmp(al.sym->name, "alpha") &&
		    !strcmp(al.dso->short_name, "[kernel.kallsyms]") &&
		    al.level == 'k' && al.addr == k + 0x60, "kernel address");
	/* A user-mode sample with a kernel address is looked up there too. */
	machine__resolve(&mach, 5, 5, PERF_RECORD_MISC_USER, m + 0x1010, &al);
	TEST_ASSERT(ctx, al.sym && !strcmp(al.sym->name, "mod_a_fn1") &&
		    !strcmp(al.dso->short_name, "[mod_a]") && al.level == 'k',
		    "module address: %s", al.dso ? al.dso->short_name : "no dso");
	machine__resolve(&mach, 5, 5, PERF_RECORD_MISC_KERNEL, m + 0x3010, &al);
	TEST_ASSERT(ctx, !al.map && !al.sym && al.addr == m + 0x3010,
		    "a BPF program got a map");
	machine__exit(&mach);
	dsos__exit();

	/* Recorded on a boot with _text 2 MiB lower than in this kallsyms. */
	TEST_ASSERT(ctx, !machine__init(&mach), "machine__init");
	mmap2(&mach, (u32)-1, 0, k - 0x200000, 0x1000, k - 0x200000,
	      PROT_READ | PROT_EXEC, "[kernel.kallsyms]_text");
	machine__resolve(&mach, 5, 5, PERF_RECORD_MISC_KERNEL,
			 k - 0x200000 + 0x60, &al);
	TEST_ASSERT(ctx, al.sym && !strcmp(al.sym->name, "alpha"),
		    "relocated kernel: %s", al.sym ? al.sym->name : "no symbol");
	machine__exit(&mach);
	dsos__exit();
	symbol_conf.kallsyms = NULL;
	return TEST_OK;
}

/*
 * Module names cut short by a NUL byte, on two lines: the second looked
 * the first up reading past its copy (fuzz-symbols, heap-buffer-overflow
 * under ASan).  Such lines are no module's; the load goes on.
 */
static int check_kallsyms_nul_module(struct test_ctx *ctx, const char *path)
{
	static const char text[] =
		"ffffffff81000000 T _text\n"
		"ffffffffc0000000 t m_one\t[ab\0cd]\n"
		"ffffffffc0001000 t m_two\t[ab\0cd]\n";
	struct module_tables mt = { .nr = 0 };
	struct symtab kernel = { .nr = 0 };
	FILE *f = fopen(path, "w");
	int n, i;

	TEST_ASSERT(ctx, f && fwrite(text, sizeof(text) - 1, 1, f) == 1 &&
		    !fclose(f), "cannot write %s", path);
	n = symtab__load_kallsyms(&kernel, path, NULL, 0, module_table, &mt);
	TEST_ASSERT(ctx, n >= 1, "kallsyms with NUL bytes: %d", n);
	TEST_ASSERT(ctx, mt.nr == 0, "%d modules from names without ']'", mt.nr);
	symtab__exit(&kernel);
	for (i = 0; i < mt.nr; i++)
		symtab__exit(&mt.st[i]);
	return TEST_OK;
}

/*
 * A table big enough for the lookup cache: addresses looked up again,
 * many of them sharing a cache slot, and addresses outside every symbol
 * must give what the search gives.
 */
static int check_lookup_cache(struct test_ctx *ctx, const char *path)
{
	const u64 k = 0xffffffff81000000ULL, step = 0x100, nr = 3000;
	struct symtab st = { .nr = 0 };
	u64 i, seed = 1;
	int round, n;
	FILE *f;

	/* An empty table (no array at all) has nothing anywhere. */
	TEST_ASSERT(ctx, !symtab__find(&st, k), "a symbol in an empty table");
	f = fopen(path, "w");
	TEST_ASSERT(ctx, f, "%s: %s", path, strerror(errno));
	fprintf(f, "%llx T _text\n", (unsigned long long)k);
	for (i = 0; i < nr; i++)
		fprintf(f, "%llx T fn_%llu\n", (unsigned long long)(k + i * step),
			(unsigned long long)i);
	TEST_ASSERT(ctx, !fclose(f), "%s: %s", path, strerror(errno));
	n = symtab__load_kallsyms(&st, path, NULL, 0, NULL, NULL);
	TEST_ASSERT(ctx, n == (int)nr, "%d symbols, not %llu", n,
		    (unsigned long long)nr);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 4 * nr; i++) {
			u64 addr, off;
			const struct symbol *sym;
			char want[32];

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			/* Some below the first symbol, where there is none. */
			off = (seed >> 33) % ((nr - 1) * step + 0x1000);
			addr = k + off - 0x1000;
			sym = symtab__find(&st, addr);
			if (addr < k) {
				TEST_ASSERT(ctx, !sym, "%#llx: %s, not nothing",
					    (unsigned long long)addr, sym->name);
				continue;
			}
			snprintf(want, sizeof(want), "fn_%llu",
				 (unsigned long long)((addr - k) / step));
			TEST_ASSERT(ctx, sym && !strcmp(sym->name, want),
				    "%#llx (round %d): %s, not %s",
				    (unsigned long long)addr, round,
				    sym ? sym->name : "nothing", want);
		}
		/* A table loaded anew must not answer from the old one. */
		if (round == 1) {
			TEST_ASSERT(ctx, symtab__find(&st, k + 0x80) &&
				    symtab__find(&st, k + 0x80) == symtab__find(&st, k),
				    "%#llx: not in fn_0", (unsigned long long)k + 0x80);
			n = symtab__load_kallsyms(&st, path, "_text", k + step,
						  NULL, NULL);
			TEST_ASSERT(ctx, n == (int)nr, "reloaded: %d", n);
			TEST_ASSERT(ctx, !symtab__find(&st, k + 0x80),
				    "relocated table answered from the old one");
			symtab__exit(&st);
			n = symtab__load_kallsyms(&st, path, NULL, 0, NULL, NULL);
		}
	}
	symtab__exit(&st);
	return TEST_OK;
}

#define CHUNK_SYMS 20000
#define CHUNK_BASE 0xffffffff81000000ULL

static void chunk_sym_name(char *buf, size_t size, int i)
{
	snprintf(buf, size, "sym_%d_%.*s", i, i % 23, "aaaaaaaaaaaaaaaaaaaaaaa");
}

/*
 * A kallsyms file longer than a read: lines split between reads, one
 * in uppercase hex, one with a short address, a 70000-byte line that
 * is no symbol, and a last line without a newline.
 */
static int check_kallsyms_chunks(struct test_ctx *ctx, const char *path)
{
	struct symtab st = { .nr = 0 };
	const struct symbol *sym;
	FILE *f = fopen(path, "w");
	char name[64];
	int i, bad = -1;

	TEST_ASSERT(ctx, f, "create %s", path);
	fprintf(f, "1000 T short_one\n");
	for (i = 0; i < CHUNK_SYMS; i++) {
		if (i == CHUNK_SYMS / 4)
			fprintf(f, "%070000d\n", 0);
		chunk_sym_name(name, sizeof(name), i);
		fprintf(f, i == CHUNK_SYMS / 2 ? "%016llX T %s\n" :
			"%016llx T %s\n", CHUNK_BASE + i * 0x40ULL, name);
	}
	fprintf(f, "%016llx T last_one", CHUNK_BASE + i * 0x40ULL);
	fclose(f);
	symtab__load_kallsyms(&st, path, NULL, 0, NULL, NULL);
	for (i = 0; i < CHUNK_SYMS && bad < 0; i++) {
		chunk_sym_name(name, sizeof(name), i);
		sym = symtab__find_by_name(&st, name);
		if (!sym || sym->start != CHUNK_BASE + i * 0x40ULL)
			bad = i;
	}
	sym = symtab__find_by_name(&st, "last_one");
	if (bad < 0 && (!sym || sym->start != CHUNK_BASE + i * 0x40ULL))
		bad = i;
	sym = symtab__find_by_name(&st, "short_one");
	if (bad < 0 && (!sym || sym->start != 0x1000))
		bad = i + 1;
	TEST_ASSERT(ctx, bad < 0 && st.nr == CHUNK_SYMS + 2,
		    "%zu symbols; line %d of the chunked kallsyms wrong",
		    (size_t)st.nr, bad);
	symtab__exit(&st);
	return TEST_OK;
}

int test__kallsyms(struct test_ctx *ctx)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct symtab st = { .nr = 0 };
	int ret;

	if (make_tmpdir(dir, sizeof(dir)))
		return test_skip(ctx, "cannot create a temporary directory");
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	ret = write_file(path, kallsyms_text) ? TEST_FAIL : TEST_OK;
	if (ret == TEST_OK)
		ret = check_kallsyms_tables(ctx, path);
	if (ret == TEST_OK)
		ret = check_kernel_resolve(ctx, path);
	if (ret == TEST_OK)
		ret = check_kallsyms_nul_module(ctx, path);
	if (ret == TEST_OK)
		ret = check_lookup_cache(ctx, path);
	if (ret == TEST_OK)
		ret = check_kallsyms_chunks(ctx, path);
	if (ret == TEST_OK) {
		/* kptr_restrict: every address reads as zero. */
		write_file(path, "0000000000000000 T _text\n0000000000000000 t x\n");
		if (symtab__load_kallsyms(&st, path, NULL, 0, NULL, NULL) != -EPERM) {
			printf("    zeroed kallsyms accepted\n");
			ret = TEST_FAIL;
		}
		symtab__exit(&st);
	}
	remove_tree(dir);
	return ret;
}

/* (d) --symfs */

static int symfs_lookup(struct test_ctx *ctx, const char *symfs,
			const char *recorded, u64 expect)
{
	struct symtab st = { .nr = 0 };
	const struct symbol *sym;
	char found[PATH_MAX];
	int n;

	symbol_conf.symfs = symfs;
	n = symtab__load_elf(&st, recorded, NULL, found, sizeof(found));
	symbol_conf.symfs = NULL;
	sym = n > 0 ? symtab__find_by_name(&st, "hot_lib_loop") : NULL;
	pr_test(ctx, "    %s under %s: %d symbols from %s\n", recorded, symfs, n,
		found);
	TEST_ASSERT(ctx, sym && sym->start == expect &&
		    !strncmp(found, symfs, strlen(symfs)),
		    "%s not found under %s", recorded, symfs);
	symtab__exit(&st);
	return TEST_OK;
}

/* The recorded path names a file only the symfs copy exists for. */
static int symfs_machine(struct test_ctx *ctx, const char *symfs,
			 const char *recorded, u64 rel)
{
	u64 buf[(sizeof(struct perf_record_mmap2) + PATH_MAX) / 8 + 1];
	union perf_event *ev = (union perf_event *)buf;
	struct addr_location al;
	struct machine m;
	size_t len = PERF_ALIGN8(strlen(recorded) + 1);

	memset(buf, 0, sizeof(buf));
	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = PERF_RECORD_MISC_USER;
	ev->header.size = sizeof(ev->mmap2) + len;
	ev->mmap2.pid = 77;
	ev->mmap2.tid = 77;
	ev->mmap2.start = 0x10000000;
	ev->mmap2.len = 0x100000;
	ev->mmap2.pgoff = 0;
	ev->mmap2.prot = PROT_READ | PROT_EXEC;
	strcpy(ev->mmap2.filename, recorded);
	symbol_conf.symfs = symfs;
	TEST_ASSERT(ctx, !machine__init(&m) && !machine__process_event(&m, ev, NULL),
		    "MMAP2 refused");
	machine__resolve(&m, 77, 77, PERF_RECORD_MISC_USER, 0x10000000 + rel, &al);
	symbol_conf.symfs = NULL;
	TEST_ASSERT(ctx, al.sym && !strcmp(al.sym->name, "hot_lib_loop") &&
		    !strcmp(al.dso->short_name, "libperf-hot.so"),
		    "MMAP2 of %s: %s", recorded, al.sym ? al.sym->name : "no symbol");
	machine__exit(&m);
	return TEST_OK;
}

int test__symfs(struct test_ctx *ctx)
{
	char lib[PATH_MAX], flat[PATH_MAX], full[PATH_MAX], p[2 * PATH_MAX];
	struct symtab st = { .nr = 0 };
	const struct symbol *sym;
	int ret = TEST_FAIL;
	u64 expect;

	TEST_ASSERT(ctx, !perf_path(lib, sizeof(lib), "libperf-hot.so"), "path");
	if (access(lib, R_OK))
		return test_skip(ctx, "%s missing (run 'make')", lib);
	TEST_ASSERT(ctx, symtab__load_elf(&st, lib, NULL, NULL, 0) > 0 &&
		    (sym = symtab__find_by_name(&st, "hot_lib_loop")),
		    "no hot_lib_loop in %s", lib);
	expect = sym->start;
	symtab__exit(&st);
	if (make_tmpdir(flat, sizeof(flat)) || make_tmpdir(full, sizeof(full)))
		return test_skip(ctx, "cannot create a temporary directory");

	/* Flat: every DSO by its base name in one directory. */
	snprintf(p, sizeof(p), "%s/libperf-hot.so", flat);
	if (copy_file(lib, p))
		goto out;
	/* Full: DIR + the recorded path. */
	snprintf(p, sizeof(p), "%s/some/where", full);
	if (run(ctx, "mkdir -p '%s'", p))
		goto out;
	snprintf(p, sizeof(p), "%s/some/where/libperf-hot.so", full);
	if (copy_file(lib, p))
		goto out;
	if (symfs_lookup(ctx, flat, "/some/other/dir/libperf-hot.so", expect) ||
	    symfs_lookup(ctx, full, "/some/where/libperf-hot.so", expect) ||
	    symfs_machine(ctx, flat, "/some/other/dir/libperf-hot.so", expect))
		goto out;
	/* Files outside the symfs are not used, even where they exist. */
	symbol_conf.symfs = full;
	ret = symtab__load_elf(&st, lib, NULL, NULL, 0) == -ENOENT ?
	      TEST_OK : TEST_FAIL;
	symbol_conf.symfs = NULL;
	if (ret != TEST_OK)
		printf("    %s was used though not under %s\n", lib, full);
out:
	remove_tree(flat);
	remove_tree(full);
	return ret;
}

/* (e) separate debug info */

static const char debug_src[] =
	"static __attribute__((noinline, used)) int only_in_symtab(int x)\n"
	"{ return x * 3; }\n"
	"int exported_fn(int x) { return only_in_symtab(x) + 1; }\n";

static int debug_lookup(struct test_ctx *ctx, const char *so, u64 expect,
			const char *debug)
{
	struct symtab st = { .nr = 0 };
	const struct symbol *sym;
	char found[PATH_MAX];
	int n = symtab__load_elf(&st, so, NULL, found, sizeof(found));

	sym = n > 0 ? symtab__find_by_name(&st, "only_in_symtab") : NULL;
	pr_test(ctx, "    %s: %d symbols from %s\n", so, n, found);
	TEST_ASSERT(ctx, sym && sym->start == expect && !strcmp(found, debug),
		    "only_in_symtab from %s at %#llx", found,
		    sym ? (unsigned long long)sym->start : 0ULL);
	symtab__exit(&st);
	return TEST_OK;
}

static int debuglink_checks(struct test_ctx *ctx, const char *dir)
{
	char so[PATH_MAX], orig[PATH_MAX], dbg[PATH_MAX], moved[PATH_MAX];
	struct symtab st = { .nr = 0 };
	struct build_id bad = { .size = 20 };
	const struct symbol *sym;
	u64 expect;

	snprintf(so, sizeof(so), "%s/libdbg.so", dir);
	snprintf(orig, sizeof(orig), "%s/orig.so", dir);
	snprintf(dbg, sizeof(dbg), "%s/libdbg.debug", dir);
	snprintf(moved, sizeof(moved), "%s/.debug/libdbg.debug", dir);
	if (build(ctx, dir, "libdbg.so", debug_src, "-g -fPIC -shared") ||
	    copy_file(so, orig) ||
	    run(ctx, "objcopy --only-keep-debug '%s' '%s'", so, dbg) ||
	    run(ctx, "strip --strip-all '%s'", so))
		return test_skip(ctx, "could not build a stripped object");
	TEST_ASSERT(ctx, symtab__load_elf(&st, orig, NULL, NULL, 0) > 0 &&
		    (sym = symtab__find_by_name(&st, "only_in_symtab")),
		    "unstripped object lacks only_in_symtab");
	expect = sym->start;
	symtab__exit(&st);
	/* Stripped and not linked yet: only .dynsym is left. */
	TEST_ASSERT(ctx, symtab__load_elf(&st, so, NULL, NULL, 0) > 0 &&
		    symtab__find_by_name(&st, "exported_fn") &&
		    !symtab__find_by_name(&st, "only_in_symtab"),
		    "stripped object: wrong symbols");
	symtab__exit(&st);
	if (run(ctx, "cd '%s' && objcopy --add-gnu-debuglink=libdbg.debug libdbg.so",
		dir))
		return test_skip(ctx, "objcopy --add-gnu-debuglink failed");
	/* Beside the object, then in .debug/ beside it. */
	if (debug_lookup(ctx, so, expect, dbg))
		return TEST_FAIL;
	TEST_ASSERT(ctx, !run(ctx, "mkdir '%s/.debug' && mv '%s' '%s'", dir, dbg,
			      moved), "mv");
	if (debug_lookup(ctx, so, expect, moved))
		return TEST_FAIL;
	/* A different recorded build id: neither file may be used. */
	TEST_ASSERT(ctx, symtab__load_elf(&st, so, &bad, NULL, 0) == -ENOENT,
		    "a file with another build id was used");
	return TEST_OK;
}

int test__debuglink(struct test_ctx *ctx)
{
	char dir[PATH_MAX];
	int ret;

	if (!have_tool("cc") || !have_tool("objcopy") || !have_tool("strip"))
		return test_skip(ctx, "needs cc, objcopy and strip");
	if (make_tmpdir(dir, sizeof(dir)))
		return test_skip(ctx, "cannot create a temporary directory");
	ret = debuglink_checks(ctx, dir);
	remove_tree(dir);
	return ret;
}

/* (b) machine: synthesized records */

union record_buf {
	union perf_event ev;
	u64 raw[(sizeof(struct perf_record_mmap2) + PATH_MAX) / 8 + 1];
};

static int comm(struct machine *m, u32 pid, u32 tid, const char *name, bool exec)
{
	union record_buf b;

	memset(&b, 0, sizeof(b));
	b.ev.header.type = PERF_RECORD_COMM;
	b.ev.header.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	b.ev.header.size = sizeof(b.ev.comm) + PERF_ALIGN8(strlen(name) + 1);
	b.ev.comm.pid = pid;
	b.ev.comm.tid = tid;
	strcpy(b.ev.comm.comm, name);
	return machine__process_event(m, &b.ev, NULL);
}

static int mmap2(struct machine *m, u32 pid, u32 tid, u64 start, u64 len,
		 u64 pgoff, u32 prot, const char *file)
{
	union record_buf b;

	memset(&b, 0, sizeof(b));
	b.ev.header.type = PERF_RECORD_MMAP2;
	b.ev.header.misc = pid == (u32)-1 ? PERF_RECORD_MISC_KERNEL :
			   PERF_RECORD_MISC_USER;
	b.ev.header.size = sizeof(b.ev.mmap2) + PERF_ALIGN8(strlen(file) + 1);
	b.ev.mmap2.pid = pid;
	b.ev.mmap2.tid = tid;
	b.ev.mmap2.start = start;
	b.ev.mmap2.len = len;
	b.ev.mmap2.pgoff = pgoff;
	b.ev.mmap2.prot = prot;
	b.ev.mmap2.flags = MAP_PRIVATE;
	strcpy(b.ev.mmap2.filename, file);
	return machine__process_event(m, &b.ev, NULL);
}

static int task(struct machine *m, u32 type, u32 pid, u32 ppid, u32 tid,
		u32 ptid)
{
	struct perf_record_fork ev = {
		.header = { .type = type, .size = sizeof(ev) },
		.pid = pid, .ppid = ppid, .tid = tid, .ptid = ptid,
	};

	return machine__process_event(m, (union perf_event *)&ev, NULL);
}

/*
 * perf record reads the CPUs' buffers one after the other: a sample
 * can come before the MMAP2 of its library.  Its binary's build id is
 * still collected.
 */
static int check_late_mapping(struct test_ctx *ctx)
{
	struct perf_header_info info;
	struct build_id_tracker bt;
	union record_buf b;
	char path[PATH_MAX];
	bool found = false;
	u32 i;

	TEST_ASSERT(ctx, !perf_path(path, sizeof(path), NULL), "no /proc/self/exe");
	perf_header_info__init(&info);
	TEST_ASSERT(ctx, !build_id_tracker__init(&bt, PERF_SAMPLE_IP | PERF_SAMPLE_TID),
		    "no tracker");
	memset(&b, 0, sizeof(b));
	b.ev.header.type = PERF_RECORD_SAMPLE;
	b.ev.header.misc = PERF_RECORD_MISC_USER;
	b.ev.header.size = sizeof(b.ev.header) + 16;
	b.raw[1] = 0x401000;			/* ip */
	b.raw[2] = 4242 | (4242ULL << 32);	/* pid, tid */
	build_id_tracker__event(&bt, &b.ev);
	memset(&b, 0, sizeof(b));
	b.ev.header.type = PERF_RECORD_MMAP2;
	b.ev.header.misc = PERF_RECORD_MISC_USER;
	b.ev.header.size = sizeof(b.ev.mmap2) + PERF_ALIGN8(strlen(path) + 1);
	b.ev.mmap2.pid = 4242;
	b.ev.mmap2.tid = 4242;
	b.ev.mmap2.start = 0x400000;
	b.ev.mmap2.len = 0x10000;
	b.ev.mmap2.prot = PROT_READ | PROT_EXEC;
	b.ev.mmap2.flags = MAP_PRIVATE;
	strcpy(b.ev.mmap2.filename, path);
	build_id_tracker__event(&bt, &b.ev);
	TEST_ASSERT(ctx, !build_id_tracker__collect(&bt, &info), "collect failed");
	for (i = 0; i < info.nr_build_ids; i++)
		found |= !strcmp(info.build_ids[i].filename, path) &&
			 info.build_ids[i].size == 20;
	build_id_tracker__exit(&bt);
	perf_header_info__exit(&info);
	TEST_ASSERT(ctx, found, "no build id of %s, sampled before its mapping",
		    path);
	return TEST_OK;
}

/* @ip in @tid is in @dso (NULL: unmapped) at dso-relative @rel. */
static int expect_map(struct test_ctx *ctx, struct machine *m, u32 pid, u32 tid,
		      u64 ip, const char *dso, u64 rel)
{
	struct addr_location al;

	TEST_ASSERT(ctx, !machine__resolve(m, pid, tid, PERF_RECORD_MISC_USER, ip,
					   &al), "resolve");
	if (!dso) {
		TEST_ASSERT(ctx, !al.map && !al.dso && !al.sym && al.addr == ip,
			    "%u/%u %#llx is in %s", pid, tid,
			    (unsigned long long)ip, al.dso->long_name);
		return TEST_OK;
	}
	TEST_ASSERT(ctx, al.map && !strcmp(al.dso->long_name, dso) &&
		    al.addr == rel && al.thread && al.thread->tid == tid &&
		    al.level == '.',
		    "%u/%u %#llx: %s+%#llx, not %s+%#llx", pid, tid,
		    (unsigned long long)ip, al.dso ? al.dso->long_name : "nothing",
		    (unsigned long long)al.addr, dso, (unsigned long long)rel);
	return TEST_OK;
}

#define X (PROT_READ | PROT_EXEC)
#define LIB 0x7f0000000000ULL

static int machine_fork_checks(struct test_ctx *ctx, struct machine *m)
{
	struct thread *t;

	comm(m, 100, 100, "parent", false);
	mmap2(m, 100, 100, 0x400000, 0x100000, 0, X, "/fake/bin/a");
	mmap2(m, 100, 100, LIB, 0x10000, 0x1000, X, "/fake/lib/libx.so");
	task(m, PERF_RECORD_FORK, 200, 100, 200, 100);
	t = machine__find_thread(m, 200);
	TEST_ASSERT(ctx, t && t->pid == 200 && t->ppid == 100 &&
		    !strcmp(t->comm, "parent") && t->maps != machine__find_thread(m, 100)->maps,
		    "forked child");
	if (expect_map(ctx, m, 200, 200, 0x400123, "/fake/bin/a", 0x123) ||
	    expect_map(ctx, m, 200, 200, LIB + 0x10, "/fake/lib/libx.so", 0x1010))
		return TEST_FAIL;
	/* The child's own mappings are its own. */
	mmap2(m, 200, 200, 0x600000, 0x1000, 0, X, "/fake/bin/only_child");
	if (expect_map(ctx, m, 200, 200, 0x600010, "/fake/bin/only_child", 0x10) ||
	    expect_map(ctx, m, 100, 100, 0x600010, NULL, 0))
		return TEST_FAIL;
	/* A thread (pid == parent's pid) shares the address space. */
	task(m, PERF_RECORD_FORK, 100, 100, 101, 100);
	TEST_ASSERT(ctx, machine__find_thread(m, 101)->maps ==
		    machine__find_thread(m, 100)->maps, "thread has its own maps");
	mmap2(m, 100, 101, 0x700000, 0x1000, 0, X, "/fake/lib/t.so");
	if (expect_map(ctx, m, 100, 100, 0x700001, "/fake/lib/t.so", 1) ||
	    expect_map(ctx, m, 100, 101, 0x400000, "/fake/bin/a", 0) ||
	    expect_map(ctx, m, 200, 200, 0x700001, NULL, 0))
		return TEST_FAIL;
	/* Unknown threads and addresses. */
	if (expect_map(ctx, m, 100, 100, 0x12345, NULL, 0) ||
	    expect_map(ctx, m, 999, 999, 0x400000, NULL, 0))
		return TEST_FAIL;
	return TEST_OK;
}

/* The frame at @ip of a call chain of thread 100, in user mode. */
static const char *frame_dso(struct machine *m, u64 ip)
{
	struct thread *t = machine__find_thread(m, 100);
	u8 cpumode = PERF_RECORD_MISC_USER;
	struct addr_location al;

	if (machine__resolve_callchain_ip(m, t, &cpumode, ip, &al) || !al.dso)
		return "";
	return al.dso->long_name;
}

static int machine_mmap_checks(struct test_ctx *ctx, struct machine *m)
{
	struct addr_location al;

	/* Resolved frames are cached, and a new map must not see the old. */
	TEST_ASSERT(ctx, !strcmp(frame_dso(m, LIB + 0x4800), "/fake/lib/libx.so") &&
		    !strcmp(frame_dso(m, LIB + 0x4800), "/fake/lib/libx.so"),
		    "frame before the new map: %s", frame_dso(m, LIB + 0x4800));
	/* Over the middle of libx: libx survives on both sides. */
	mmap2(m, 100, 100, LIB + 0x4000, 0x2000, 0, X, "/fake/lib/over.so");
	TEST_ASSERT(ctx, !strcmp(frame_dso(m, LIB + 0x4800), "/fake/lib/over.so"),
		    "frame after the new map: %s", frame_dso(m, LIB + 0x4800));
	if (expect_map(ctx, m, 100, 100, LIB + 0x1000, "/fake/lib/libx.so", 0x2000) ||
	    expect_map(ctx, m, 100, 100, LIB + 0x4800, "/fake/lib/over.so", 0x800) ||
	    expect_map(ctx, m, 100, 100, LIB + 0x8000, "/fake/lib/libx.so", 0x9000))
		return TEST_FAIL;
	/* Over libx's tail and beyond. */
	mmap2(m, 100, 100, LIB + 0xe000, 0x4000, 0, X, "/fake/lib/tail.so");
	if (expect_map(ctx, m, 100, 100, LIB + 0xdfff, "/fake/lib/libx.so", 0xefff) ||
	    expect_map(ctx, m, 100, 100, LIB + 0x10000, "/fake/lib/tail.so", 0x2000))
		return TEST_FAIL;
	/* Covering several maps completely. */
	mmap2(m, 100, 100, LIB, 0x20000, 0, X, "/fake/lib/all.so");
	if (expect_map(ctx, m, 100, 100, LIB + 0x4800, "/fake/lib/all.so", 0x4800) ||
	    expect_map(ctx, m, 100, 100, LIB + 0x1ffff, "/fake/lib/all.so", 0x1ffff))
		return TEST_FAIL;
	TEST_ASSERT(ctx, machine__find_thread(m, 100)->maps->nr == 3,
		    "%u maps left", machine__find_thread(m, 100)->maps->nr);
	/* Pseudo files: no symbols, names as Linux perf prints them. */
	mmap2(m, 100, 100, 0x800000, 0x1000, 0x5000, X, "[vdso]");
	mmap2(m, 100, 100, 0x900000, 0x1000, 0, X, "//anon");
	mmap2(m, 100, 100, 0xa00000, 0x1000, 0, PROT_READ, "//anon");
	machine__resolve(m, 100, 100, PERF_RECORD_MISC_USER, 0x800010, &al);
	TEST_ASSERT(ctx, al.map && !strcmp(al.dso->short_name, "[vdso]") &&
		    al.addr == 0x10, "vdso: %s+%#llx", al.dso ? al.dso->short_name : "-",
		    (unsigned long long)al.addr);
	machine__resolve(m, 100, 100, PERF_RECORD_MISC_USER, 0x900010, &al);
	TEST_ASSERT(ctx, al.map && !strcmp(al.dso->short_name, "[JIT] tid 100") &&
		    !al.sym && al.addr == 0x900010, "anonymous code");
	machine__resolve(m, 100, 100, PERF_RECORD_MISC_USER, 0xa00010, &al);
	TEST_ASSERT(ctx, al.map && !strcmp(al.dso->short_name, "anon") && !al.sym,
		    "anonymous data");
	return TEST_OK;
}

static int machine_exec_checks(struct test_ctx *ctx, struct machine *m)
{
	struct thread *old, *t;

	/*
	 * exec: the new comm is used; the old maps stay until the new
	 * image's MMAPs replace them (execve()'s own samples need them).
	 */
	comm(m, 200, 200, "newprog", true);
	t = machine__find_thread(m, 200);
	TEST_ASSERT(ctx, !strcmp(t->comm, "newprog") && t->comm_set, "exec comm");
	if (expect_map(ctx, m, 200, 200, LIB + 0x10, "/fake/lib/libx.so", 0x1010))
		return TEST_FAIL;
	mmap2(m, 200, 200, 0x400000, 0x1000, 0, X, "/fake/bin/newprog");
	if (expect_map(ctx, m, 200, 200, 0x400123, "/fake/bin/newprog", 0x123) ||
	    expect_map(ctx, m, 200, 200, 0x401123, "/fake/bin/a", 0x1123) ||
	    expect_map(ctx, m, 100, 100, 0x400123, "/fake/bin/a", 0x123))
		return TEST_FAIL;
	/* EXIT marks it dead; a new task with the same tid is a new thread. */
	task(m, PERF_RECORD_EXIT, 200, 100, 200, 100);
	old = machine__find_thread(m, 200);
	TEST_ASSERT(ctx, old == t && t->dead, "exited thread");
	task(m, PERF_RECORD_FORK, 200, 100, 200, 100);
	t = machine__find_thread(m, 200);
	TEST_ASSERT(ctx, t != old && !t->dead && !strcmp(t->comm, "parent") &&
		    !strcmp(old->comm, "newprog"), "reused tid");
	if (expect_map(ctx, m, 200, 200, 0x400123, "/fake/bin/a", 0x123))
		return TEST_FAIL;
	/* A thread never named shows as :tid. */
	t = machine__findnew_thread(m, 300, 301);
	TEST_ASSERT(ctx, t && !strcmp(t->comm, ":301") && !t->comm_set &&
		    t->maps == machine__find_thread(m, 300)->maps, ":tid comm");
	return TEST_OK;
}

/* This very function, through an MMAP2 like the kernel would write. */
static int machine_self_checks(struct test_ctx *ctx, struct machine *m)
{
	u64 ip = fn_addr(test__machine) + 4;
	struct addr_location al;
	struct self_map sm;
	u64 chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
			PERF_CONTEXT_USER, ip };
	u8 mode = PERF_RECORD_MISC_CPUMODE_UNKNOWN;
	int guest, bogus;
	size_t i;

	TEST_ASSERT(ctx, !self_map(ip, &sm), "test__machine is not mapped");
	mmap2(m, 400, 400, sm.start, sm.end - sm.start, sm.pgoff, X, sm.path);
	machine__resolve(m, 400, 400, PERF_RECORD_MISC_USER, ip, &al);
	TEST_ASSERT(ctx, al.sym && !strcmp(al.sym->name, "test__machine") &&
		    al.addr - al.sym->start == 4, "own IP resolved to %s",
		    al.sym ? al.sym->name : "nothing");
	for (i = 0; i < ARRAY_SIZE(chain); i++) {
		int marker = machine__resolve_callchain_ip(m, al.thread, &mode,
							   chain[i], &al);

		TEST_ASSERT(ctx, marker == !(i & 1), "entry %zu: marker %d", i,
			    marker);
		TEST_ASSERT(ctx, mode == (i < 2 ? PERF_RECORD_MISC_KERNEL :
					  PERF_RECORD_MISC_USER), "entry %zu mode", i);
	}
	TEST_ASSERT(ctx, al.sym && !strcmp(al.sym->name, "test__machine") &&
		    al.level == '.', "user entry of the callchain");
	mode = PERF_RECORD_MISC_CPUMODE_UNKNOWN;
	machine__resolve_callchain_ip(m, al.thread, &mode, ip, &al);
	TEST_ASSERT(ctx, al.sym && al.cpumode == PERF_RECORD_MISC_USER,
		    "entry before any marker");
	/* Guest or unknown markers in a host chain: corrupt, dropped whole. */
	guest = machine__resolve_callchain_ip(m, al.thread, &mode,
					      PERF_CONTEXT_GUEST_KERNEL, &al);
	bogus = machine__resolve_callchain_ip(m, al.thread, &mode, (u64)-304,
					      &al);
	TEST_ASSERT(ctx, guest == -EINVAL && bogus == -EINVAL &&
		    mode == PERF_RECORD_MISC_CPUMODE_UNKNOWN,
		    "corrupt chain marker accepted");
	return TEST_OK;
}

/* The kernel map from the "[kernel.kallsyms]_text" MMAP bounds the kernel. */
static int machine_kernel_checks(struct test_ctx *ctx, struct machine *m)
{
	struct addr_location al;

	symbol_conf.kallsyms = "/nonexistent/kallsyms";
	mmap2(m, (u32)-1, 0, 0xffffffff81000000ULL, 0x1000000,
	      0xffffffff81000000ULL, X, "[kernel.kallsyms]_text");
	machine__resolve(m, 100, 100, PERF_RECORD_MISC_KERNEL,
			 0xffffffff81000010ULL, &al);
	TEST_ASSERT(ctx, al.map && !strcmp(al.dso->short_name, "[kernel.kallsyms]") &&
		    !al.sym && al.level == 'k' && al.addr == 0xffffffff81000010ULL,
		    "kernel map");
	machine__resolve(m, 100, 100, PERF_RECORD_MISC_KERNEL,
			 0xffffffff82000010ULL, &al);
	TEST_ASSERT(ctx, !al.map, "past the kernel map");
	TEST_ASSERT(ctx, !strcmp(dsos__kernel()->ref_name, "_text") &&
		    dsos__kernel()->ref_addr == 0xffffffff81000000ULL, "ref symbol");
	symbol_conf.kallsyms = NULL;
	return TEST_OK;
}

int test__machine(struct test_ctx *ctx)
{
	struct machine m;
	int ret;

	TEST_ASSERT(ctx, !machine__init(&m), "machine__init");
	ret = machine_fork_checks(ctx, &m);
	if (ret == TEST_OK)
		ret = machine_mmap_checks(ctx, &m);
	if (ret == TEST_OK)
		ret = machine_exec_checks(ctx, &m);
	if (ret == TEST_OK)
		ret = machine_kernel_checks(ctx, &m);
	if (ret == TEST_OK)
		ret = machine_self_checks(ctx, &m);
	if (ret == TEST_OK)
		ret = check_late_mapping(ctx);
	machine__exit(&m);
	dsos__exit();
	return ret;
}
