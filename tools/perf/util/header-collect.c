// SPDX-License-Identifier: GPL-2.0
/*
 * The header features perf record fills from the running system: CPU
 * description and topology, memory, PMU names, the command line, build
 * ids, the clock and event groups.  Reading, writing and printing the
 * features is header.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <perf/cpumap.h>
#include "array.h"
#include "header.h"

static char *read_line(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getline(&line, &cap, f) <= 0) {
		free(line);
		line = NULL;
	} else {
		line[strcspn(line, "\n")] = '\0';
	}
	fclose(f);
	return line;
}

/* The value of "key<blanks>: value" in /proc/cpuinfo, first CPU. */
static char *cpuinfo_value(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t klen = strlen(key), cap = 0;
	char *line = NULL, *val = NULL;

	if (!f)
		return NULL;
	while (!val && getline(&line, &cap, f) > 0) {
		char *p = line + klen;

		if (strncmp(line, key, klen))
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p++;
		p += strspn(p, " \t");
		p[strcspn(p, "\n")] = '\0';
		val = strdup(p);
	}
	free(line);
	fclose(f);
	return val;
}

/* Brand strings come padded with runs of blanks; keep one space each. */
static void squash_spaces(char *s)
{
	char *out = s;
	bool space = false;

	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			space = true;
			continue;
		}
		if (space)
			*out++ = ' ';
		space = false;
		*out++ = *s;
	}
	if (space)
		*out++ = ' ';
	*out = '\0';
}

static char *collect_cpudesc(void)
{
	static const char * const keys[] = {
		"model name", "Processor", "cpu model", "cpu", "vendor_id",
	};
	char *val = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys) && !val; i++)
		val = cpuinfo_value(keys[i]);
	if (val)
		squash_spaces(val);
	return val;
}

/* x86 style "vendor,family,model,stepping"; other arches go without. */
static char *collect_cpuid(void)
{
	char *vendor = cpuinfo_value("vendor_id");
	char *family = cpuinfo_value("cpu family");
	char *model = cpuinfo_value("model");
	char *stepping = cpuinfo_value("stepping");
	char *cpuid = NULL;

	if (vendor && family && model && stepping &&
	    asprintf(&cpuid, "%s,%s,%s,%s", vendor, family, model,
		     stepping) < 0)
		cpuid = NULL;
	free(vendor);
	free(family);
	free(model);
	free(stepping);
	return cpuid;
}

static u64 collect_total_mem(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kb = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static char *topo_file(int cpu, const char *name, const char *fallback)
{
	char path[128];
	char *val;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	val = read_line(path);
	if (!val && fallback) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/%s", cpu,
			 fallback);
		val = read_line(path);
	}
	return val;
}

static u32 topo_id(int cpu, const char *name)
{
	char *val = topo_file(cpu, name, NULL);
	u32 id = val ? (u32)strtol(val, NULL, 10) : (u32)-1;

	free(val);
	return id;
}

/* Add s to the list unless there; takes ownership of s. */
static int add_unique(char ***v, u32 *nr, char *s)
{
	char **tmp;
	u32 i;

	if (!s)
		return 0;
	for (i = 0; i < *nr; i++) {
		if (!strcmp((*v)[i], s)) {
			free(s);
			return 0;
		}
	}
	tmp = realloc(*v, (*nr + 2) * sizeof(*tmp));
	if (!tmp) {
		free(s);
		return -ENOMEM;
	}
	tmp[(*nr)++] = s;
	tmp[*nr] = NULL;
	*v = tmp;
	return 0;
}

/* Die lists exist on x86_64 and s390x kernels that export them. */
static bool has_die_topology(const char *arch)
{
	char *val;
	bool found;

	if (!arch || (strcmp(arch, "x86_64") && strcmp(arch, "s390x")))
		return false;
	val = topo_file(0, "die_cpus_list", NULL);
	found = val;
	free(val);
	return found;
}

static int collect_topology(struct perf_header_info *info)
{
	struct perf_cpu_map *online = perf_cpu_map__new_online();
	bool dies = has_die_topology(info->arch);
	int i, err = 0;
	u32 cpu;

	if (!online)
		return -ENOMEM;
	for (i = 0; i < perf_cpu_map__nr(online) && !err; i++) {
		int c = perf_cpu_map__cpu(online, i);

		err = add_unique(&info->sibling_cores, &info->nr_sibling_cores,
				 topo_file(c, "package_cpus_list",
					   "core_siblings_list"));
		if (!err && dies)
			err = add_unique(&info->sibling_dies,
					 &info->nr_sibling_dies,
					 topo_file(c, "die_cpus_list", NULL));
		if (!err)
			err = add_unique(&info->sibling_threads,
					 &info->nr_sibling_threads,
					 topo_file(c, "core_cpus_list",
						   "thread_siblings_list"));
	}
	perf_cpu_map__put(online);
	info->cpu_topo = calloc(info->nr_cpus_avail + 1,
				sizeof(*info->cpu_topo));
	if (err || !info->cpu_topo)
		return -ENOMEM;
	info->nr_cpu_topo = info->nr_cpus_avail;
	for (cpu = 0; cpu < info->nr_cpu_topo; cpu++) {
		info->cpu_topo[cpu].core_id = topo_id(cpu, "core_id");
		info->cpu_topo[cpu].socket_id = topo_id(cpu,
							"physical_package_id");
		info->cpu_topo[cpu].die_id = dies ? topo_id(cpu, "die_id") :
						    (u32)-1;
	}
	return 0;
}

/* The PMUs the kernel registered, as perf lists them: readdir order. */
static int collect_pmu_mappings(struct perf_header_info *info)
{
	DIR *dir = opendir("/sys/bus/event_source/devices");
	struct perf_pmu_mapping *m;
	struct dirent *d;
	char path[PATH_MAX];
	int err = 0;

	perf_header_info__forget(info, HEADER_PMU_MAPPINGS);
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir)) != NULL) {
		char *type;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/type", d->d_name);
		type = read_line(path);
		if (!type)
			continue;
		m = realloc(info->pmu_mappings,
			    (info->nr_pmu_mappings + 1) * sizeof(*m));
		if (m) {
			info->pmu_mappings = m;
			m += info->nr_pmu_mappings;
			m->type = strtoul(type, NULL, 10);
			m->name = strdup(d->d_name);
		}
		if (!m || !m->name)
			err = -ENOMEM;
		else
			info->nr_pmu_mappings++;
		free(type);
	}
	closedir(dir);
	if (info->nr_pmu_mappings)
		perf_feat_set(info->features, HEADER_PMU_MAPPINGS);
	return err;
}

static void set_string(struct perf_header_info *info, int feat, char **dst,
		       const char *val)
{
	free(*dst);
	*dst = val ? strdup(val) : NULL;
	if (*dst)
		perf_feat_set(info->features, feat);
	else
		perf_feat_clear(info->features, feat);
}

static void take_string(struct perf_header_info *info, int feat, char **dst,
			char *val)
{
	set_string(info, feat, dst, val);
	free(val);
}

int perf_header_info__collect(struct perf_header_info *info,
			      const char *version)
{
	struct utsname uts;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (uname(&uts) == 0) {
		set_string(info, HEADER_HOSTNAME, &info->hostname,
			   uts.nodename);
		set_string(info, HEADER_OSRELEASE, &info->osrelease,
			   uts.release);
		set_string(info, HEADER_ARCH, &info->arch, uts.machine);
	}
	set_string(info, HEADER_VERSION, &info->version, version);
	take_string(info, HEADER_CPUDESC, &info->cpudesc, collect_cpudesc());
	take_string(info, HEADER_CPUID, &info->cpuid, collect_cpuid());
	info->nr_cpus_avail = perf_cpu__max_present();
	info->nr_cpus_online = online > 0 ? online : 1;
	perf_feat_set(info->features, HEADER_NRCPUS);
	info->total_mem = collect_total_mem();
	if (info->total_mem)
		perf_feat_set(info->features, HEADER_TOTAL_MEM);
	perf_header_info__forget(info, HEADER_CPU_TOPOLOGY);
	if (collect_topology(info)) {
		perf_header_info__forget(info, HEADER_CPU_TOPOLOGY);
		return -ENOMEM;
	}
	if (info->nr_sibling_cores || info->nr_sibling_threads)
		perf_feat_set(info->features, HEADER_CPU_TOPOLOGY);
	return collect_pmu_mappings(info);
}

int perf_header_info__set_cmdline(struct perf_header_info *info, int argc,
				  const char * const *argv)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char **v = calloc(argc + 2, sizeof(*v));
	int i;

	if (!v)
		return -ENOMEM;
	exe[n > 0 ? n : 0] = '\0';
	v[0] = strdup(n > 0 ? exe : "perf");
	for (i = 0; i < argc; i++)
		v[i + 1] = strdup(argv[i]);
	for (i = 0; i <= argc; i++) {
		if (!v[i]) {
			for (i = 0; i <= argc; i++)
				free(v[i]);
			free(v);
			return -ENOMEM;
		}
	}
	perf_header_info__forget(info, HEADER_CMDLINE);
	info->cmdline = v;
	info->nr_cmdline = argc + 1;
	perf_feat_set(info->features, HEADER_CMDLINE);
	return 0;
}

int perf_header_info__add_build_id(struct perf_header_info *info,
				   const char *filename, s32 pid, u16 cpumode,
				   const u8 *build_id, u8 size)
{
	struct perf_build_id_entry *e;

	if (size > sizeof(e->build_id))
		return -EINVAL;
	if (info->nr_build_ids == info->build_ids_alloc) {
		u32 n = info->build_ids_alloc ? info->build_ids_alloc * 2 : 16;

		e = realloc(info->build_ids, n * sizeof(*e));
		if (!e)
			return -ENOMEM;
		info->build_ids = e;
		info->build_ids_alloc = n;
	}
	e = &info->build_ids[info->nr_build_ids];
	memset(e, 0, sizeof(*e));
	e->filename = strdup(filename);
	if (!e->filename)
		return -ENOMEM;
	e->pid = pid;
	e->cpumode = cpumode;
	e->size = size;
	memcpy(e->build_id, build_id, size);
	info->nr_build_ids++;
	perf_feat_set(info->features, HEADER_BUILD_ID);
	return 0;
}

void perf_header_info__set_clock(struct perf_header_info *info, u32 clockid,
				 u64 res_ns, u64 tod_ns, u64 clockid_ns)
{
	info->clockid = clockid;
	info->clockid_res_ns = res_ns;
	info->clock_tod_ns = tod_ns;
	info->clock_clockid_ns = clockid_ns;
	perf_feat_set(info->features, HEADER_CLOCKID);
	perf_feat_set(info->features, HEADER_CLOCK_DATA);
}

int perf_header_info__add_group(struct perf_header_info *info,
				const char *name, u32 leader_idx,
				u32 nr_members)
{
	struct perf_group_desc *g;

	if (array_reserve_one((void **)&info->groups, &info->groups_alloc,
			      info->nr_groups, sizeof(*g)))
		return -ENOMEM;
	g = &info->groups[info->nr_groups];
	g->name = strdup(name ? name : "{anon_group}");
	if (!g->name)
		return -ENOMEM;
	g->leader_idx = leader_idx;
	g->nr_members = nr_members;
	info->nr_groups++;
	perf_feat_set(info->features, HEADER_GROUP_DESC);
	return 0;
}

