// SPDX-License-Identifier: GPL-2.0
/*
 * proc_reclaim_test: tools/proc-reclaim end to end, as an administrator runs
 * it (the binary next to this program).
 *
 * A target child holds 8 MiB of private anonymous memory and a 4 MiB shared
 * memfd mapping, every page with its own content, all pages made active.
 * Checked are the effects, read from the target's smaps_rollup, pagemap and
 * /proc/kpageflags and from /proc/vmstat, not only exit codes:
 *  - "--anon --hint reclaim PID" uses pidfd_madvise, the target's Swap grows
 *    by its anonymous size, its file pages stay, the count printed agrees,
 *    the data is intact;
 *  - "--file --hint cool PID" deactivates the file pages (KPF_ACTIVE
 *    cleared, pgdeactivate grows) without reclaiming them;
 *  - "--cgroup DIR" acts on a target in a cgroup v2 and not on one outside;
 *  - a pid that does not exist, a zombie, and a root target run against by
 *    an unprivileged user fail non-zero with a message naming the pid, and
 *    a valid pid given with them is left untouched;
 *  - with pidfd_madvise made to fail with ENOSYS, as on a kernel without the
 *    series, it says that it falls back to process_madvise and still
 *    reclaims and deactivates.  ENOSYS comes from a seccomp filter set up
 *    in the child before exec when the kernel has CONFIG_SECCOMP_FILTER;
 *    the guest kernels have none (tinyconfig, no NET), so there a ptrace
 *    supervisor skips the call and returns ENOSYS, and the case checks
 *    that it did (PROC_RECLAIM_TEST_PTRACE=1 forces this way).
 * Every process is pinned to CPU 0, so that draining this CPU's LRU batches
 * makes every deactivation visible.  Needs root and swap.  KTAP out.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asm/unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/kernel-page-flags.h>
#include <linux/seccomp.h>

#define ANON_SIZE	(8UL << 20)
#define FILE_SIZE	(4UL << 20)
#define NOBODY		65534

/* /proc/<pid>/pagemap */
#define PM_PFN(e)	((e) & ((1ULL << 55) - 1))
#define PM_SWAPPED	(1ULL << 62)
#define PM_PRESENT	(1ULL << 63)

static int tests, failed;
static long ps;
static char bin[512];

static void result(int ok, const char *what)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++tests, what);
	if (!ok)
		failed++;
	fflush(stdout);
}

static long read_long(const char *path, const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, strlen(key))) {
			v = atol(line + strlen(key));
			break;
		}
	}
	fclose(f);
	return v;
}

static long swap_kb(pid_t pid)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/%d/smaps_rollup", pid);
	return read_long(p, "Swap:");
}

static long vmstat(const char *key)
{
	return read_long("/proc/vmstat", key);
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Drain this CPU's LRU batches: MADV_POPULATE_READ ends in lru_add_drain(). */
static void lru_drain(void)
{
	static char *page;

	if (!page)
		page = mmap(NULL, ps, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
	if (page != MAP_FAILED)
		madvise(page, ps, MADV_POPULATE_READ);
}

/* ---- the target ---- */

/* Page @i of a region: its index and the region's seed, then a fill byte. */
static void fill(char *m, size_t len, int seed)
{
	for (size_t i = 0; i < len / ps; i++) {
		memset(m + i * ps, (int)(i % 251) + 1, ps);
		*(uint64_t *)(m + i * ps) = (uint64_t)seed << 48 | i;
	}
}

static int intact(const char *m, size_t len, int seed)
{
	char *want = malloc(ps);
	int ok = want != NULL;

	for (size_t i = 0; ok && i < len / ps; i++) {
		memset(want, (int)(i % 251) + 1, ps);
		*(uint64_t *)want = (uint64_t)seed << 48 | i;
		ok = !memcmp(m + i * ps, want, ps);
	}
	free(want);
	return ok;
}

/* Touch every page three times: GUP with FOLL_TOUCH activates it. */
static void activate(char *m, size_t len)
{
	for (int i = 0; i < 3; i++)
		madvise(m, len, MADV_POPULATE_READ);
}

struct target {
	pid_t pid;
	int cmd, rep;		/* pipes to it and from it */
	unsigned long anon, file;
};

/* Commands: 'a' activate, 'v' verify (answers '1' or '0'), EOF: exit. */
static void target_main(int cmd, int rep)
{
	unsigned long addr[2];
	char *anon, *file, c;
	int fd;

	anon = mmap(NULL, ANON_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = memfd_create("proc-reclaim-test", 0);
	if (anon == MAP_FAILED || fd < 0 || ftruncate(fd, FILE_SIZE))
		_exit(1);
	file = mmap(NULL, FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (file == MAP_FAILED)
		_exit(1);
	madvise(anon, ANON_SIZE, MADV_NOHUGEPAGE);
	fill(anon, ANON_SIZE, 1);
	fill(file, FILE_SIZE, 2);
	activate(anon, ANON_SIZE);
	activate(file, FILE_SIZE);
	addr[0] = (unsigned long)anon;
	addr[1] = (unsigned long)file;
	if (write(rep, addr, sizeof(addr)) != sizeof(addr))
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		if (c == 'a') {
			activate(anon, ANON_SIZE);
			activate(file, FILE_SIZE);
		} else if (c == 'v') {
			c = intact(anon, ANON_SIZE, 1) &&
			    intact(file, FILE_SIZE, 2) ? '1' : '0';
		}
		if (write(rep, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static int target_start(struct target *t)
{
	unsigned long addr[2];
	int cmd[2], rep[2];

	if (pipe2(cmd, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		return -1;
	t->pid = fork();
	if (t->pid < 0)
		return -1;
	if (!t->pid) {
		close(cmd[1]);
		close(rep[0]);
		target_main(cmd[0], rep[1]);
	}
	close(cmd[0]);
	close(rep[1]);
	t->cmd = cmd[1];
	t->rep = rep[0];
	if (read(t->rep, addr, sizeof(addr)) != sizeof(addr))
		return -1;
	t->anon = addr[0];
	t->file = addr[1];
	lru_drain();
	return 0;
}

static char target_ask(struct target *t, char c)
{
	if (write(t->cmd, &c, 1) != 1 || read(t->rep, &c, 1) != 1)
		return 0;
	lru_drain();
	return c;
}

/* Its data was checked by 'v': a later child may hold its pipes, kill it. */
static void target_stop(struct target *t)
{
	close(t->cmd);
	close(t->rep);
	kill(t->pid, SIGKILL);
	waitpid(t->pid, NULL, 0);
}

/* Pages of [addr, addr + len) of @pid: present, swapped, active. */
struct pstat {
	long present, swapped, active;
};

static int region_stat(pid_t pid, unsigned long addr, size_t len,
		       struct pstat *st)
{
	char p[64];
	int pm, kf;

	memset(st, 0, sizeof(*st));
	snprintf(p, sizeof(p), "/proc/%d/pagemap", pid);
	pm = open(p, O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0)
		return -1;
	for (size_t i = 0; i < len / ps; i++) {
		uint64_t e, flags;
		off_t off = (addr / ps + i) * sizeof(e);

		if (pread(pm, &e, sizeof(e), off) != sizeof(e))
			break;
		if (e & PM_SWAPPED)
			st->swapped++;
		if (!(e & PM_PRESENT))
			continue;
		st->present++;
		if (pread(kf, &flags, sizeof(flags),
			  PM_PFN(e) * sizeof(flags)) == sizeof(flags) &&
		    flags & (1ULL << KPF_ACTIVE))
			st->active++;
	}
	close(pm);
	close(kf);
	return 0;
}

/* ---- running proc-reclaim ---- */

enum how { AS_ROOT, AS_NOBODY, WITHOUT_PIDFD_MADVISE };

struct run {
	int status;		/* exit status, -1 when killed */
	char out[32768];	/* stdout and stderr */
	int intercepted;	/* pidfd_madvise calls the ptrace supervisor failed */
};

static int use_seccomp;

#if defined(__x86_64__)
#define AUDIT_ARCH_NATIVE	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_NATIVE	AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define AUDIT_ARCH_NATIVE	AUDIT_ARCH_I386
#elif defined(__arm__)
#define AUDIT_ARCH_NATIVE	AUDIT_ARCH_ARM
#endif

/* pidfd_madvise fails with ENOSYS, everything else runs. */
static int install_seccomp(void)
{
	struct sock_filter f[] = {
#ifdef AUDIT_ARCH_NATIVE
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
#endif
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_pidfd_madvise, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(f) / sizeof(f[0]),
		.filter = f,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* Whether this kernel has seccomp filters (CONFIG_SECCOMP_FILTER). */
static int seccomp_works(void)
{
	pid_t pid = fork();
	int status;

	if (!pid) {
		long ret;

		if (install_seccomp())
			_exit(1);
		ret = syscall(__NR_pidfd_madvise, -1, 1, NULL, NULL, NULL, 0);
		_exit(ret == -1 && errno == ENOSYS ? 0 : 1);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && !WEXITSTATUS(status);
}

/*
 * Skip the system call the tracee stopped at (entry) and make it return
 * -ENOSYS (exit): what a kernel without it does.
 */
#if defined(__x86_64__)
static int skip_syscall(pid_t pid)
{
	return ptrace(PTRACE_POKEUSER, pid,
		      offsetof(struct user_regs_struct, orig_rax), -1L);
}

static int set_return(pid_t pid, long ret)
{
	return ptrace(PTRACE_POKEUSER, pid,
		      offsetof(struct user_regs_struct, rax), ret);
}
#elif defined(__aarch64__)
static int skip_syscall(pid_t pid)
{
	int nr = -1;
	struct iovec iov = { &nr, sizeof(nr) };

	return ptrace(PTRACE_SETREGSET, pid, NT_ARM_SYSTEM_CALL, &iov);
}

static int set_return(pid_t pid, long ret)
{
	struct user_regs_struct regs;
	struct iovec iov = { &regs, sizeof(regs) };

	if (ptrace(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov))
		return -1;
	regs.regs[0] = ret;
	return ptrace(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
}
#else
static int skip_syscall(pid_t pid)
{
	return -1;
}

static int set_return(pid_t pid, long ret)
{
	return -1;
}
#endif

/* At a syscall stop: fail pidfd_madvise with ENOSYS, let the rest run. */
static void syscall_stop(pid_t pid, int *skipping, int *intercepted)
{
	struct __ptrace_syscall_info info;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info) <= 0)
		return;
	if (info.op == PTRACE_SYSCALL_INFO_ENTRY &&
	    info.entry.nr == __NR_pidfd_madvise) {
		*skipping = !skip_syscall(pid);
	} else if (info.op == PTRACE_SYSCALL_INFO_EXIT && *skipping) {
		if (!set_return(pid, -ENOSYS))
			(*intercepted)++;
		*skipping = 0;
	}
}

/* Supervise the tracee until it exits; its wait status, -1 on error. */
static int supervise(pid_t pid, int *intercepted)
{
	int status, sig = 0, skipping = 0;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD |
		   PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL))
		return -1;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, sig) ||
		    waitpid(pid, &status, 0) != pid)
			return -1;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			return status;
		sig = 0;
		if (WSTOPSIG(status) == (SIGTRAP | 0x80))
			syscall_stop(pid, &skipping, intercepted);
		else if (!(status >> 16))	/* not an event stop */
			sig = WSTOPSIG(status);
	}
}

static void run_child(enum how how, int out, char **argv)
{
	dup2(out, 1);
	dup2(out, 2);
	if (how == AS_NOBODY &&
	    (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))) {
		perror("setuid");
		_exit(126);
	}
	if (how == WITHOUT_PIDFD_MADVISE) {
		if (use_seccomp && install_seccomp()) {
			perror("seccomp");
			_exit(126);
		}
		if (!use_seccomp &&
		    (ptrace(PTRACE_TRACEME, 0, 0, 0) || raise(SIGSTOP))) {
			perror("ptrace");
			_exit(126);
		}
	}
	execv(bin, argv);
	perror(bin);
	_exit(127);
}

/* Run "proc-reclaim ARGS" (words split at spaces), output in r->out. */
static void run(struct run *r, enum how how, const char *fmt, ...)
{
	char args[512], *argv[32], *save = NULL;
	int argc = 0, out, status;
	va_list ap;
	ssize_t n;
	pid_t pid;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	printf("# %s%s %s\n", how == AS_NOBODY ? "[uid 65534] " :
	       how == WITHOUT_PIDFD_MADVISE ? "[pidfd_madvise: ENOSYS] " : "",
	       "proc-reclaim", args);
	fflush(stdout);
	argv[argc++] = bin;
	for (char *w = strtok_r(args, " ", &save); w && argc < 31;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	out = memfd_create("proc-reclaim-out", MFD_CLOEXEC);
	pid = out < 0 ? -1 : fork();
	if (!pid)
		run_child(how, out, argv);
	if (pid < 0)
		return;
	if (how == WITHOUT_PIDFD_MADVISE && !use_seccomp)
		status = supervise(pid, &r->intercepted);
	else if (waitpid(pid, &status, 0) != pid)
		status = -1;
	if (status != -1 && WIFEXITED(status))
		r->status = WEXITSTATUS(status);
	n = pread(out, r->out, sizeof(r->out) - 1, 0);
	r->out[n > 0 ? n : 0] = 0;
	close(out);
	for (char *l = r->out, *nl; *l; l = nl ? nl + 1 : l + strlen(l)) {
		nl = strchr(l, '\n');
		printf("#   %.*s\n", nl ? (int)(nl - l) : (int)strlen(l), l);
	}
	printf("#   (exit %d)\n", r->status);
	lru_drain();
}

/* "KIND N pages WHAT" in the line of @pid: N, or -1. */
static long reported_pages(const struct run *r, pid_t pid, const char *kind,
			   const char *what)
{
	char head[32], pat[64], *line, *end, *p;
	long n;

	snprintf(head, sizeof(head), "pid %d (", pid);
	line = strstr(r->out, head);
	if (!line)
		return -1;
	end = strchr(line, '\n');
	snprintf(pat, sizeof(pat), "%s ", kind);
	for (p = strstr(line, pat); p && (!end || p < end);
	     p = strstr(p + 1, pat)) {
		char word[32];

		if (sscanf(p + strlen(pat), "%ld pages %31s", &n, word) == 2 &&
		    !strcmp(word, what))
			return n;
	}
	return -1;
}

static int has(const struct run *r, const char *text)
{
	return strstr(r->out, text) != NULL;
}

static int names_pid(const struct run *r, pid_t pid, const char *cause)
{
	char head[32];
	char *p;

	snprintf(head, sizeof(head), "pid %d", pid);
	for (p = strstr(r->out, head); p; p = strstr(p + 1, head)) {
		char *end = strchr(p, '\n');

		if (!isdigit((unsigned char)p[strlen(head)]) &&
		    strstr(p, cause) && (!end || strstr(p, cause) < end))
			return 1;
	}
	return 0;
}

/* ---- the cases ---- */

static long anon_pages(void)
{
	return ANON_SIZE / ps;
}

static long file_pages(void)
{
	return FILE_SIZE / ps;
}

/* Swap of @t grew by at least 90% of its anonymous size. */
static int anon_swapped(struct target *t, long swap0, struct pstat *st)
{
	long swap1 = swap_kb(t->pid);

	region_stat(t->pid, t->anon, ANON_SIZE, st);
	printf("# pid %d: Swap %ld -> %ld kB; anon region: %ld of %ld pages swapped\n",
	       t->pid, swap0, swap1, st->swapped, anon_pages());
	return swap1 - swap0 >= (long)(ANON_SIZE >> 10) * 9 / 10 &&
	       st->swapped >= anon_pages() * 9 / 10;
}

/* The file pages of @t were deactivated, none reclaimed. */
static int file_cooled(struct target *t, const struct pstat *before,
		       long deact0)
{
	long deact = vmstat("pgdeactivate ") - deact0;
	struct pstat st;

	region_stat(t->pid, t->file, FILE_SIZE, &st);
	printf("# pid %d: file region active %ld -> %ld of %ld pages, present %ld; pgdeactivate +%ld\n",
	       t->pid, before->active, st.active, file_pages(), st.present,
	       deact);
	return before->active >= file_pages() * 9 / 10 &&
	       st.active <= file_pages() / 10 && st.present == file_pages() &&
	       deact >= file_pages() * 9 / 10;
}

static void test_pidfd_madvise(struct target *t)
{
	long swap0 = swap_kb(t->pid), n, grown;
	struct pstat st, fst;
	struct run r;

	run(&r, AS_ROOT, "--anon --hint reclaim %d", t->pid);
	result(r.status == 0 && has(&r, "via pidfd_madvise") &&
	       !has(&r, "falling back"),
	       "--anon --hint reclaim exits 0 and uses pidfd_madvise");
	region_stat(t->pid, t->file, FILE_SIZE, &fst);
	result(anon_swapped(t, swap0, &st) && fst.present == file_pages(),
	       "the target's Swap grew by its anonymous size, its file pages stayed");
	n = reported_pages(&r, t->pid, "anon", "reclaimed");
	grown = (swap_kb(t->pid) - swap0) / (ps >> 10);
	printf("# reported: %ld anon pages reclaimed; Swap grew by %ld pages\n",
	       n, grown);
	result(n >= anon_pages() * 9 / 10 && n <= grown + anon_pages() / 10,
	       "the anon pages it reports reclaimed are the ones in swap");
	result(target_ask(t, 'v') == '1', "the target's data is intact");
}

static void test_file_cool(struct target *t)
{
	long swap0, deact0, n;
	struct pstat before;
	struct run r;
	int ok;

	target_ask(t, 'a');
	swap0 = swap_kb(t->pid);
	region_stat(t->pid, t->file, FILE_SIZE, &before);
	deact0 = vmstat("pgdeactivate ");
	run(&r, AS_ROOT, "--file --hint cool %d", t->pid);
	ok = file_cooled(t, &before, deact0) &&
	     swap_kb(t->pid) - swap0 < (long)(FILE_SIZE >> 10) / 10;
	result(ok && r.status == 0 && has(&r, "via pidfd_madvise"),
	       "--file --hint cool deactivates the file pages (kpageflags, pgdeactivate), reclaims nothing");
	n = reported_pages(&r, t->pid, "file", "deactivated");
	printf("# reported: %ld file pages deactivated\n", n);
	result(n >= file_pages() * 9 / 10 && n <= file_pages() * 11 / 10 + 256,
	       "the file pages it reports deactivated are the ones deactivated");
}

/* Where the cgroup v2 hierarchy is mounted. */
static int cgroup2_mount(char *dir, size_t len)
{
	char line[1024], mnt[512], type[64];
	FILE *f = fopen("/proc/self/mounts", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %511s %63s", mnt, type) == 2 &&
		    !strcmp(type, "cgroup2")) {
			snprintf(dir, len, "%s", mnt);
			found = 1;
		}
	if (f)
		fclose(f);
	return found;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

static void test_cgroup(struct target *outside)
{
	char mnt[512], dir[600], procs[640], pid[16];
	long swap0, out0, deact0;
	struct pstat st, before;
	struct target t;
	struct run r;
	int ok = 0;

	if (!cgroup2_mount(mnt, sizeof(mnt))) {
		printf("# no cgroup2 mount\n");
		result(0, "--cgroup reclaims the processes of a cgroup v2, and only them");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/mmr-proc-reclaim-%d", mnt, getpid());
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	if (target_start(&t)) {
		result(0, "--cgroup: cannot start a target");
		return;
	}
	if (mkdir(dir, 0755)) {
		printf("# mkdir %s: %s\n", dir, strerror(errno));
		result(0, "--cgroup reclaims the processes of a cgroup v2, and only them");
		target_stop(&t);
		return;
	}
	snprintf(pid, sizeof(pid), "%d", t.pid);
	if (!write_str(procs, pid)) {
		target_ask(&t, 'a');
		swap0 = swap_kb(t.pid);
		out0 = swap_kb(outside->pid);
		region_stat(t.pid, t.file, FILE_SIZE, &before);
		deact0 = vmstat("pgdeactivate ");
		run(&r, AS_ROOT, "--cgroup %s", dir);
		ok = anon_swapped(&t, swap0, &st);
		ok = file_cooled(&t, &before, deact0) && ok;
		printf("# pid %d outside the cgroup: Swap %ld -> %ld kB\n",
		       outside->pid, out0, swap_kb(outside->pid));
		ok = ok && r.status == 0 &&
		     reported_pages(&r, t.pid, "anon", "reclaimed") > 0 &&
		     swap_kb(outside->pid) - out0 < (long)(ANON_SIZE >> 10) / 10;
	} else {
		printf("# %s: %s\n", procs, strerror(errno));
	}
	result(ok, "--cgroup reclaims the processes of a cgroup v2, and only them");
	target_stop(&t);
	for (int i = 0; i < 50 && rmdir(dir); i++)
		usleep(100000);
}

static void test_errors(struct target *t)
{
	long swap0 = swap_kb(t->pid);
	siginfo_t si;
	struct run r;
	pid_t gone, zombie;

	gone = fork();
	if (!gone)
		_exit(0);
	waitpid(gone, NULL, 0);
	run(&r, AS_ROOT, "--anon --hint reclaim %d %d", t->pid, gone);
	result(r.status > 0 && names_pid(&r, gone, "no such process") &&
	       swap_kb(t->pid) - swap0 < (long)(ANON_SIZE >> 10) / 10,
	       "a pid that does not exist: non-zero, named, the valid pid untouched");

	zombie = fork();
	if (!zombie)
		_exit(0);
	waitid(P_PID, zombie, &si, WEXITED | WNOWAIT);
	run(&r, AS_ROOT, "%d", zombie);
	result(r.status > 0 && names_pid(&r, zombie, "exited"),
	       "a zombie: non-zero, named as exited");
	waitpid(zombie, NULL, 0);

	run(&r, AS_NOBODY, "--anon --hint reclaim %d", t->pid);
	result(r.status > 0 && names_pid(&r, t->pid, "permission denied (") &&
	       swap_kb(t->pid) - swap0 < (long)(ANON_SIZE >> 10) / 10,
	       "an unprivileged user against a root process: non-zero, permission denied, untouched");
}

static void test_fallback(void)
{
	long swap0, deact0;
	struct pstat st, before;
	struct target t;
	struct run r;
	int ok;

	if (target_start(&t)) {
		result(0, "fallback: cannot start a target");
		result(0, "fallback: cannot start a target");
		return;
	}
	swap0 = swap_kb(t.pid);
	region_stat(t.pid, t.file, FILE_SIZE, &before);
	deact0 = vmstat("pgdeactivate ");
	run(&r, WITHOUT_PIDFD_MADVISE, "%d", t.pid);
	printf("# ENOSYS from %s%s\n", use_seccomp ? "a seccomp filter" :
	       "a ptrace supervisor", use_seccomp ? "" :
	       r.intercepted ? " (pidfd_madvise was called)" :
	       " (pidfd_madvise was not called)");
	result(r.status == 0 &&
	       has(&r, "falling back to process_madvise") &&
	       has(&r, "via process_madvise") &&
	       (use_seccomp || r.intercepted > 0),
	       "pidfd_madvise ENOSYS: it says it falls back to process_madvise");
	ok = anon_swapped(&t, swap0, &st);
	ok = file_cooled(&t, &before, deact0) && ok;
	result(ok && target_ask(&t, 'v') == '1',
	       "fallback: anon memory in swap, file pages deactivated, data intact");
	target_stop(&t);
}

int main(int argc, char **argv)
{
	struct target t;
	char *slash;

	ps = sysconf(_SC_PAGESIZE);
	snprintf(bin, sizeof(bin), "%s", argv[0]);
	slash = strrchr(bin, '/');
	snprintf(slash ? slash + 1 : bin, sizeof(bin) - (slash ? slash + 1 - bin : 0),
		 "proc-reclaim");
	printf("TAP version 13\n1..12\n");
	if (getuid()) {
		printf("Bail out! needs root\n");
		return 1;
	}
	if (access(bin, X_OK)) {
		printf("Bail out! no %s\n", bin);
		return 1;
	}
	if (read_long("/proc/meminfo", "SwapTotal:") <= 0)
		printf("# no swap: the reclaim checks will fail\n");
	use_seccomp = !getenv("PROC_RECLAIM_TEST_PTRACE") && seccomp_works();
	pin_cpu0();
	if (target_start(&t)) {
		printf("Bail out! cannot start the target\n");
		return 1;
	}
	test_pidfd_madvise(&t);
	test_file_cool(&t);
	test_cgroup(&t);
	test_errors(&t);
	target_stop(&t);
	test_fallback();
	printf("# Totals: pass:%d fail:%d\n", tests - failed, failed);
	return failed ? 1 : 0;
}
