// SPDX-License-Identifier: GPL-2.0
/*
 * proc-reclaim: the compaction policy of an activity manager, for
 * administrators: push the memory of a process that went to the background
 * out of RAM, anonymous memory to swap and file pages to the inactive list.
 *
 * One pidfd_madvise() call per process, over its whole address space, with
 * an element per kind of memory:
 *   MADV_RECLAIM | MADV_ANONYMOUS_FILTER   anonymous VMAs reclaimed now,
 *   MADV_COOL | MADV_FILE_FILTER           file VMAs (shmem included)
 *                                          deactivated;
 * the per-range results (pages reclaimed, pages deactivated) are printed
 * with Rss and Swap of /proc/<pid>/smaps_rollup before and after.  Every
 * pid is opened and checked before any process is touched.
 *
 * On a kernel without pidfd_madvise() (ENOSYS) it says so and falls back to
 * 6.12's process_madvise() over the ranges of /proc/<pid>/maps, with
 * upstream's values of the hints (MADV_PAGEOUT, MADV_COLD).
 *
 *   proc-reclaim 1234 5678
 *   proc-reclaim --anon --hint reclaim --cgroup /app.slice/background
 *
 * Build against the uapi headers of a kernel with the series:
 *   make headers_install O=$obj
 *   gcc -static -O2 -Wall -isystem $obj/usr/include -o proc-reclaim proc-reclaim.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include <asm/unistd.h>
#ifndef __NR_pidfd_madvise
#error "needs the uapi headers of a kernel with pidfd_madvise (make headers_install, -isystem $obj/usr/include)"
#endif
#include <linux/mman.h>
#include <linux/pidfd_madvise.h>

enum kind { KIND_ANON, KIND_FILE, NR_KINDS };
enum hint { HINT_COOL, HINT_RECLAIM };
enum iface { IFACE_PIDFD_MADVISE, IFACE_PROCESS_MADVISE };

static const char *const kind_name[NR_KINDS] = { "anon", "file" };
static const char *const hint_name[] = { "cool", "reclaim" };
static const char *const hint_done[] = { "deactivated", "reclaimed" };
static const char *const iface_name[] = { "pidfd_madvise", "process_madvise" };

static bool want[NR_KINDS];
/*
 * Default: anonymous memory to swap, which is cheap to fault back from zram,
 * file pages only deactivated, as their refault costs storage I/O.
 */
static enum hint hint[NR_KINDS] = { HINT_RECLAIM, HINT_COOL };
static enum iface iface = IFACE_PIDFD_MADVISE;
static long pagesize;

/* From /proc/<pid>/smaps_rollup, in kB; -1 when not readable. */
struct mem {
	long rss, anon, swap;
};

struct target {
	int pid;
	int pidfd;
	char comm[32];
	struct mem before, after;
	/* pidfd_madvise(): the result of each element, pages or -errno */
	long result[NR_KINDS];
	/* process_madvise(): ranges and bytes advised, ranges refused */
	unsigned long ranges[NR_KINDS], bytes[NR_KINDS];
	unsigned long refused[NR_KINDS];
	int refused_err[NR_KINDS];
};

static struct target *targets;
static int nr_targets, max_targets;

static double mib_kb(long kb)
{
	return kb / 1024.0;
}

static double mib_pages(long pages)
{
	return (double)pages * pagesize / (1024.0 * 1024.0);
}

/* ---- /proc ---- */

static void read_comm(int pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;

	*comm = 0;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(comm, len, f))
		comm[strcspn(comm, "\n")] = 0;
	fclose(f);
}

/* The state letter of /proc/<pid>/stat (R, S, Z, ...), 0 when gone. */
static char proc_state(int pid)
{
	char path[64], buf[512], *p;
	char state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');	/* comm may hold spaces */
		if (p && p[1] == ' ')
			state = p[2];
	}
	fclose(f);
	return state;
}

static void read_mem(int pid, struct mem *m)
{
	char path[64], line[256];
	FILE *f;

	m->rss = -1;
	m->anon = -1;
	m->swap = -1;
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Rss:", 4))
			m->rss = atol(line + 4);
		else if (!strncmp(line, "Anonymous:", 10))
			m->anon = atol(line + 10);
		else if (!strncmp(line, "Swap:", 5))
			m->swap = atol(line + 5);
	}
	fclose(f);
}

/* ---- the two interfaces ---- */

/* The seed's hint and the filter of @kind, as pidfd_madvise() takes them. */
static int seed_advice(int kind)
{
	unsigned int advice;

	advice = hint[kind] == HINT_RECLAIM ? MADV_RECLAIM : MADV_COOL;
	advice |= kind == KIND_ANON ? MADV_ANONYMOUS_FILTER : MADV_FILE_FILTER;
	return (int)advice;
}

/* Upstream's value of the same hint: all that 6.12's process_madvise() takes. */
static int upstream_advice(int kind)
{
	return hint[kind] == HINT_RECLAIM ? MADV_PAGEOUT : MADV_COLD;
}

static const char *upstream_name(int kind)
{
	return hint[kind] == HINT_RECLAIM ? "MADV_PAGEOUT" : "MADV_COLD";
}

/*
 * The end of the range that covers the whole address space.  Userspace
 * cannot learn TASK_SIZE (it depends on the paging mode), and a filtered
 * hint skips unmapped space at no cost, so the range is [0, the last
 * page-aligned address).
 */
static unsigned long whole_space(void)
{
	return -(unsigned long)pagesize;
}

/* The vector of one pidfd_madvise() call: an element per kind wanted. */
struct pmadv_vec {
	int nr;
	int kind[NR_KINDS];
	int behavior[NR_KINDS];
	long res[NR_KINDS];
	struct iovec range[NR_KINDS], out[NR_KINDS];
	struct pr_madvise_param results, ranges;
};

/* Every element over [0, @len): @len 0 gives a probe that touches nothing. */
static void pmadv_prepare(struct pmadv_vec *v, unsigned long len)
{
	int k;

	memset(v, 0, sizeof(*v));
	for (k = 0; k < NR_KINDS; k++) {
		if (!want[k])
			continue;
		v->kind[v->nr] = k;
		v->behavior[v->nr] = seed_advice(k);
		v->range[v->nr].iov_base = NULL;
		v->range[v->nr].iov_len = len;
		v->res[v->nr] = -EINTR;
		v->out[v->nr].iov_base = &v->res[v->nr];
		v->out[v->nr].iov_len = sizeof(long);
		v->nr++;
	}
	v->results.size = sizeof(v->results);
	v->results.vec = v->out;
	v->ranges.size = sizeof(v->ranges);
	v->ranges.vec = v->range;
}

/* 0 or -errno. */
static int sys_pidfd_madvise(int pidfd, struct pmadv_vec *v)
{
	if (syscall(__NR_pidfd_madvise, pidfd, (ssize_t)v->nr, v->behavior,
		    &v->results, &v->ranges, 0UL))
		return -errno;
	return 0;
}

/* Bytes advised (ranges in order, up to the first that failed) or -errno. */
static long sys_process_madvise(int pidfd, const struct iovec *iov, size_t nr,
				int advice)
{
	long ret = syscall(__NR_process_madvise, pidfd, iov, nr, advice, 0U);

	return ret < 0 ? -errno : ret;
}

static int sys_pidfd_open(int pid)
{
	int fd = syscall(__NR_pidfd_open, pid, 0U);

	return fd < 0 ? -errno : fd;
}

/*
 * Which call this kernel has: pidfd_madvise() on a bad pidfd fails with
 * EBADF where it exists, ENOSYS where it does not.  Says so on a fallback.
 */
static int choose_iface(void)
{
	struct iovec empty = { NULL, 0 };
	struct pmadv_vec v;

	pmadv_prepare(&v, 0);
	if (sys_pidfd_madvise(-1, &v) != -ENOSYS)
		return 0;
	iface = IFACE_PROCESS_MADVISE;
	if (sys_process_madvise(-1, &empty, 1, MADV_COLD) == -ENOSYS) {
		fprintf(stderr, "proc-reclaim: this kernel has neither pidfd_madvise() nor process_madvise() (5.10 and later)\n");
		return -1;
	}
	printf("proc-reclaim: pidfd_madvise() is not available (ENOSYS: a kernel without the mm-remote series): falling back to process_madvise() over the ranges of /proc/<pid>/maps\n");
	fflush(stdout);
	return 0;
}

/*
 * The call-level checks of the call that will be made (pidfd, a process
 * with memory, the permission the hints need), with empty ranges: 0, or
 * -errno with nothing touched.
 */
static int probe(const struct target *t)
{
	struct iovec empty = { NULL, 0 };
	struct pmadv_vec v;
	int k;

	if (iface == IFACE_PIDFD_MADVISE) {
		pmadv_prepare(&v, 0);
		return sys_pidfd_madvise(t->pidfd, &v);
	}
	for (k = 0; k < NR_KINDS; k++) {
		long ret;

		if (!want[k])
			continue;
		ret = sys_process_madvise(t->pidfd, &empty, 1, upstream_advice(k));
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- errors ---- */

static void explain(const struct target *t, const char *what, int err)
{
	const char *why;
	char state;

	switch (err) {
	case ESRCH:
		state = proc_state(t->pid);
		if (t->pidfd < 0)
			why = "no such process";
		else if (!state || state == 'X')
			why = "the process has exited";
		else if (state == 'Z')
			why = "the process has exited (a zombie: its parent has not reaped it)";
		else
			why = "the process has no user memory (a kernel thread, or exiting)";
		break;
	case EINVAL:	/* pidfd_open() of a thread id: 6.12 */
	case ENOENT:	/* the same, later kernels */
		why = t->pidfd < 0 ?
		      "not a process id (a thread id? give its process's)" :
		      strerror(err);
		break;
	case EACCES:
		why = "permission denied (EACCES): no ptrace read access to it (run as root)";
		break;
	case EPERM:
		why = "permission denied (EPERM): hints to another process need CAP_SYS_NICE";
		break;
	case EMFILE:
	case ENFILE:
		why = "too many open files to hold a pidfd per process (ulimit -n)";
		break;
	default:
		why = strerror(err);
	}
	fprintf(stderr, "proc-reclaim: pid %d%s%s%s: %s%s%s\n", t->pid,
		*t->comm ? " (" : "", t->comm, *t->comm ? ")" : "",
		what ? what : "", what ? ": " : "", why);
}

/* ---- targets ---- */

static int add_target(int pid)
{
	int i;

	for (i = 0; i < nr_targets; i++)
		if (targets[i].pid == pid)
			return 0;
	if (nr_targets == max_targets) {
		int n = max_targets ? 2 * max_targets : 16;
		struct target *t = realloc(targets, n * sizeof(*t));

		if (!t) {
			perror("proc-reclaim");
			return -1;
		}
		targets = t;
		max_targets = n;
	}
	memset(&targets[nr_targets], 0, sizeof(*targets));
	targets[nr_targets].pid = pid;
	targets[nr_targets].pidfd = -1;
	nr_targets++;
	return 0;
}

/* A pid from the command line: -1 (reported) when it is not a number. */
static int add_pid_arg(const char *arg)
{
	char *end;
	long pid;

	errno = 0;
	pid = strtol(arg, &end, 10);
	if (errno || end == arg || *end || pid <= 0 || pid > INT_MAX) {
		fprintf(stderr, "proc-reclaim: pid '%s': not a process id\n", arg);
		return -1;
	}
	return add_target(pid);
}

/* Where the cgroup v2 hierarchy is mounted, false if nowhere. */
static bool cgroup2_mount(char *dir, size_t len)
{
	char line[4096], mnt[4096], type[64];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s", mnt, type) == 2 &&
		    !strcmp(type, "cgroup2")) {
			snprintf(dir, len, "%s", mnt);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/*
 * PATH/cgroup.procs, PATH a directory of the cgroup file system or a cgroup
 * path as /proc/<pid>/cgroup shows it (below the cgroup2 mount).
 */
static FILE *open_cgroup_procs(const char *cg)
{
	char path[PATH_MAX], mnt[PATH_MAX];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/cgroup.procs", cg) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	f = fopen(path, "re");
	if (f || cg[0] != '/' || !cgroup2_mount(mnt, sizeof(mnt)))
		return f;
	if (snprintf(path, sizeof(path), "%s%s/cgroup.procs", mnt, cg) >=
	    PATH_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "re");
}

static int add_cgroup(const char *cg)
{
	FILE *f = open_cgroup_procs(cg);
	int pid, ret = 0, n = 0;

	if (!f) {
		fprintf(stderr, "proc-reclaim: cgroup %s: cannot read its cgroup.procs: %s\n",
			cg, strerror(errno));
		return -1;
	}
	while (fscanf(f, "%d", &pid) == 1) {
		if (pid == getpid())
			continue;	/* not ourselves */
		if (add_target(pid))
			ret = -1;
		n++;
	}
	fclose(f);
	if (!n) {
		printf("proc-reclaim: cgroup %s: no process to advise in it\n",
		       cg);
		fflush(stdout);
	}
	return ret;
}

/* One pidfd per target: raise the soft limit of open files if needed. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	if (rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)nr_targets + 16) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Open and probe every target; the number that cannot be advised. */
static int check_targets(void)
{
	int i, bad = 0;

	raise_nofile();
	for (i = 0; i < nr_targets; i++) {
		struct target *t = &targets[i];
		int ret;

		read_comm(t->pid, t->comm, sizeof(t->comm));
		ret = sys_pidfd_open(t->pid);
		if (ret < 0) {
			explain(t, NULL, -ret);
			bad++;
			continue;
		}
		t->pidfd = ret;
		ret = probe(t);
		if (ret < 0) {
			explain(t, NULL, -ret);
			bad++;
		}
	}
	return bad;
}

/* ---- acting ---- */

/*
 * One call over the whole address space: 0, or the -errno of the call (the
 * process exited meanwhile, a fatal signal).  The results, pages or the
 * -errno of one kind, go to t->result.
 */
static int reclaim_pidfd_madvise(struct target *t)
{
	struct pmadv_vec v;
	int i, ret;

	pmadv_prepare(&v, whole_space());
	ret = sys_pidfd_madvise(t->pidfd, &v);
	for (i = 0; i < v.nr; i++)
		t->result[v.kind[i]] = v.res[i];
	return ret;
}

struct ranges {
	struct iovec *iov;
	size_t nr, max;
};

static int add_range(struct ranges *r, unsigned long start, unsigned long end)
{
	if (r->nr == r->max) {
		size_t n = r->max ? 2 * r->max : 256;
		struct iovec *iov = realloc(r->iov, n * sizeof(*iov));

		if (!iov)
			return -ENOMEM;
		r->iov = iov;
		r->max = n;
	}
	r->iov[r->nr].iov_base = (void *)start;
	r->iov[r->nr].iov_len = end - start;
	r->nr++;
	return 0;
}

/*
 * The kind of a /proc/<pid>/maps line as the filters see it: anonymous when
 * no file backs it (no inode: unnamed, [heap], [stack], [anon:NAME]), file
 * otherwise (shared anonymous memory is shmem, a file).  -1 for the
 * kernel's special mappings ([vdso], [vvar], [vsyscall], ...).
 */
static int maps_kind(unsigned long inode, const char *path)
{
	if (inode)
		return KIND_FILE;
	if (!*path || !strcmp(path, "[heap]") || !strncmp(path, "[stack", 6) ||
	    !strncmp(path, "[anon:", 6))
		return KIND_ANON;
	return *path == '[' ? -1 : KIND_FILE;
}

static int read_maps(int pid, struct ranges r[NR_KINDS])
{
	unsigned long start, end, inode;
	char path[64], *line = NULL;
	size_t len = 0;
	int n, kind, ret = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!ret && getline(&line, &len, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%lx-%lx %*s %*x %*x:%*x %lu %n",
			   &start, &end, &inode, &n) < 3)
			continue;
		kind = maps_kind(inode, line + n);
		if (kind >= 0 && want[kind])
			ret = add_range(&r[kind], start, end);
	}
	free(line);
	fclose(f);
	return ret;
}

/* How many of the @nr ranges from @iov the @bytes advised cover whole. */
static size_t ranges_done(const struct iovec *iov, size_t nr, long bytes)
{
	size_t i;

	for (i = 0; i < nr && bytes >= (long)iov[i].iov_len; i++)
		bytes -= iov[i].iov_len;
	return i;
}

/* Errors of the process itself, not of one of its ranges. */
static bool process_error(int err)
{
	return err == ESRCH || err == EINTR || err == EBADF || err == EACCES ||
	       err == EPERM || err == ENOSYS || err == EFAULT;
}

/*
 * Advise the ranges of one kind, IOV_MAX a call.  A range the kernel
 * refuses (locked, hugetlb, device memory, unmapped meanwhile) ends a call
 * with the bytes advised before it; the next call starts with it, and when
 * that fails too the range is skipped and counted with its error.  0 or
 * the -errno of the process.
 */
static int advise_ranges(struct target *t, int kind, const struct ranges *r)
{
	int advice = upstream_advice(kind);
	size_t i = 0, n, done;
	long ret;

	while (i < r->nr) {
		n = r->nr - i < IOV_MAX ? r->nr - i : IOV_MAX;
		ret = sys_process_madvise(t->pidfd, r->iov + i, n, advice);
		if (ret < 0 && process_error(-ret))
			return ret;
		done = ret > 0 ? ranges_done(r->iov + i, n, ret) : 0;
		t->ranges[kind] += done;
		t->bytes[kind] += ret > 0 ? ret : 0;
		i += done;
		if (ret <= 0) {
			if (!t->refused[kind]++)
				t->refused_err[kind] = ret < 0 ? -ret : EINVAL;
			i++;
		}
	}
	return 0;
}

/* process_madvise() over the ranges of /proc/<pid>/maps; 0 or -errno. */
static int reclaim_process_madvise(struct target *t)
{
	struct ranges r[NR_KINDS] = { };
	int k, ret;

	ret = read_maps(t->pid, r);
	/* the maps of a process that exited meanwhile read empty, or ENOENT */
	if (ret == -ENOENT || (!ret && !r[KIND_ANON].nr && !r[KIND_FILE].nr))
		ret = probe(t);
	for (k = 0; !ret && k < NR_KINDS; k++)
		if (want[k])
			ret = advise_ranges(t, k, &r[k]);
	for (k = 0; k < NR_KINDS; k++)
		free(r[k].iov);
	return ret;
}

/* ---- reporting ---- */

static void print_kind_pidfd_madvise(const struct target *t, int k)
{
	long res = t->result[k];

	if (res < 0)
		printf("%s %s failed: %s", kind_name[k], hint_name[hint[k]],
		       strerror(-res));
	else
		printf("%s %ld pages %s (%.1f MiB)", kind_name[k], res,
		       hint_done[hint[k]], mib_pages(res));
}

static void print_kind_process_madvise(const struct target *t, int k)
{
	printf("%s %s (%s) over %lu range%s, %.1f MiB of address space",
	       kind_name[k], hint_name[hint[k]], upstream_name(k),
	       t->ranges[k], t->ranges[k] == 1 ? "" : "s",
	       t->bytes[k] / (1024.0 * 1024.0));
	if (t->refused[k])
		printf(", %lu range%s refused (%s)", t->refused[k],
		       t->refused[k] == 1 ? "" : "s",
		       strerror(t->refused_err[k]));
}

static void print_mem(const char *name, long before, long after)
{
	if (before < 0 || after < 0)
		printf("%s n/a", name);
	else
		printf("%s %.1f -> %.1f MiB", name, mib_kb(before),
		       mib_kb(after));
}

static void report(const struct target *t)
{
	const char *sep = "";
	int k;

	printf("pid %d (%s): %s: ", t->pid, t->comm, iface_name[iface]);
	for (k = 0; k < NR_KINDS; k++) {
		if (!want[k])
			continue;
		printf("%s", sep);
		if (iface == IFACE_PIDFD_MADVISE)
			print_kind_pidfd_madvise(t, k);
		else
			print_kind_process_madvise(t, k);
		sep = ", ";
	}
	printf("; ");
	print_mem("Rss", t->before.rss, t->after.rss);
	printf(", ");
	print_mem("Anonymous", t->before.anon, t->after.anon);
	printf(", ");
	print_mem("Swap", t->before.swap, t->after.swap);
	printf("\n");
	fflush(stdout);
}

static void print_plan(void)
{
	const char *sep = "";
	int k;

	printf("proc-reclaim: %d process%s via %s (", nr_targets,
	       nr_targets == 1 ? "" : "es", iface_name[iface]);
	for (k = 0; k < NR_KINDS; k++) {
		if (!want[k])
			continue;
		printf("%s%s %s", sep, kind_name[k], hint_name[hint[k]]);
		if (iface == IFACE_PROCESS_MADVISE)
			printf(" as %s", upstream_name(k));
		sep = ", ";
	}
	if (iface == IFACE_PIDFD_MADVISE)
		printf("; one call per process over its whole address space)\n");
	else
		printf("; per range of /proc/<pid>/maps, up to %d a call)\n",
		       IOV_MAX);
	fflush(stdout);
}

/* True when a kind of memory could not be advised. */
static bool kind_failed(const struct target *t)
{
	int k;

	for (k = 0; k < NR_KINDS; k++)
		if (want[k] && t->result[k] < 0)
			return true;
	return false;
}

/* Act on one checked target and report it; 0, or -1 when it failed. */
static int reclaim(struct target *t)
{
	int ret;

	read_mem(t->pid, &t->before);
	if (iface == IFACE_PIDFD_MADVISE)
		ret = reclaim_pidfd_madvise(t);
	else
		ret = reclaim_process_madvise(t);
	read_mem(t->pid, &t->after);
	if (ret < 0) {
		explain(t, iface_name[iface], -ret);
		return -1;
	}
	report(t);
	return kind_failed(t) ? -1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: proc-reclaim [--anon | --file] [--hint cool|reclaim] PID...\n"
"       proc-reclaim [--anon | --file] [--hint cool|reclaim] --cgroup PATH...\n"
"  Pushes the memory of the processes PID (or of every process in the cgroup\n"
"  v2 PATH) out of RAM: anonymous memory is reclaimed to swap, file pages\n"
"  (shmem included) are deactivated, so that reclaim drops them first.\n"
"  --anon, --file   only anonymous memory, only file pages (default: both)\n"
"  --hint HINT      reclaim (write out now) or cool (deactivate) for every\n"
"                   kind chosen (default: reclaim anon, cool file)\n"
"  --cgroup PATH    the processes of PATH/cgroup.procs; PATH is a directory\n"
"                   of the cgroup file system or a path below its mount\n"
"  Uses one pidfd_madvise() call per process; on a kernel without it,\n"
"  process_madvise() over /proc/<pid>/maps, and says so.  Every pid is\n"
"  checked before any process is touched.  Needs CAP_SYS_NICE and ptrace\n"
"  read access to the processes (root).  Exit: 0, 1 (a process could not\n"
"  be advised), 2 (usage).\n");
}

static int parse_hint(const char *arg, enum hint *h)
{
	if (!strcmp(arg, "cool"))
		*h = HINT_COOL;
	else if (!strcmp(arg, "reclaim"))
		*h = HINT_RECLAIM;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "anon", no_argument, NULL, 'a' },
		{ "file", no_argument, NULL, 'f' },
		{ "hint", required_argument, NULL, 'H' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *cgroups[64];
	int opt, i, nr_cgroups = 0, bad = 0, failed = 0;
	bool hinted = false;
	enum hint h = HINT_RECLAIM;

	pagesize = sysconf(_SC_PAGESIZE);
	while ((opt = getopt_long(argc, argv, "afH:g:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			want[KIND_ANON] = true;
			break;
		case 'f':
			want[KIND_FILE] = true;
			break;
		case 'H':
			if (parse_hint(optarg, &h)) {
				fprintf(stderr, "proc-reclaim: --hint %s: cool or reclaim\n",
					optarg);
				return 2;
			}
			hinted = true;
			break;
		case 'g':
			if (nr_cgroups == 64) {
				fprintf(stderr, "proc-reclaim: too many cgroups\n");
				return 2;
			}
			cgroups[nr_cgroups++] = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc && nr_cgroups) {
		fprintf(stderr, "proc-reclaim: PIDs or --cgroup, not both\n");
		return 2;
	}
	if (optind == argc && !nr_cgroups) {
		usage(stderr);
		return 2;
	}
	if (!want[KIND_ANON] && !want[KIND_FILE]) {
		want[KIND_ANON] = true;
		want[KIND_FILE] = true;
	}
	if (hinted) {
		hint[KIND_ANON] = h;
		hint[KIND_FILE] = h;
	}

	for (i = optind; i < argc; i++)
		if (add_pid_arg(argv[i]))
			bad++;
	for (i = 0; i < nr_cgroups; i++)
		if (add_cgroup(cgroups[i]))
			bad++;
	if (choose_iface())
		return 1;
	bad += check_targets();
	if (bad) {
		fprintf(stderr, "proc-reclaim: %d error%s: nothing done\n",
			bad, bad == 1 ? "" : "s");
		return 1;
	}
	if (!nr_targets)
		return 0;

	print_plan();
	for (i = 0; i < nr_targets; i++)
		if (reclaim(&targets[i]))
			failed++;
	if (failed)
		fprintf(stderr, "proc-reclaim: %d of %d processes failed\n",
			failed, nr_targets);
	return failed ? 1 : 0;
}
