// SPDX-License-Identifier: GPL-2.0
/*
 * bench-dump: a checkpoint dump of a running process's anonymous memory
 * into an image file, the process_vm_readv() way and the process_vm_mmap()
 * way.
 *
 *   bench-dump [MiB]        (default 1024)
 *
 * For 4 KiB pages (MADV_NOHUGEPAGE) and for THPs (MADV_HUGEPAGE, 2 MiB
 * aligned), a target fills MiB of memory (the first 1 KiB of every page
 * unique, the rest zero), then keeps writing into it all the time it runs:
 * every millisecond it stores a fresh value into the next DIRTY_PER_TICK
 * pages of a fixed permutation of its pages.  Each dump runs in a fresh
 * child process, so its peak RSS (ru_maxrss) is its own, and writes
 * the image to a file in $BENCH_DUMP_DIR (default /dev/shm, tmpfs):
 *
 *   readv: SIGSTOP the target, wait until /proc says it stopped, then
 *          process_vm_readv() and write() CHUNK bytes at a time through
 *          one prefaulted buffer, then SIGCONT (CRIU's way);
 *   mmap:  SIGSTOP, wait, process_vm_mmap() the whole range (the kernel
 *          picks the address, flags 0), SIGCONT at once; then write()
 *          the image from the copy, CHUNK bytes at a time, and munmap it.
 *
 * Frozen: from SIGSTOP sent to SIGCONT sent.  Total: to the image written
 * (and the copy unmapped).  An untimed verification run of the mmap way
 * also process_vm_readv()s a reference while the target is frozen, and
 * compares every chunk of the image, read back after the target resumed
 * and wrote on, with it, byte for byte.  The anchor: process_vm_mmap()'s
 * call time against the time of a fork() of the target (the page tables
 * of the same memory copied), both per GiB.  Repeats: $BENCH_REPEATS,
 * fewer when the next would pass $BENCH_BUDGET_S (default 360) seconds
 * of timed runs.
 * Exit 77 without process_vm_mmap() (after the readv way and the fork).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/mman.h>
#include <asm/unistd.h>

#include "bench.h"

#define HPAGE		(2UL << 20)
#define CHUNK		(64UL << 20)	/* readv buffer and write() size */
#define PAT_WORDS	128		/* pseudo-random words opening a page */
#define DIRTY_WORD	PAT_WORDS	/* the word the target keeps writing */
#define DIRTY_PER_TICK	4
#define TICK_NS		1000000L
#define DEF_BUDGET	360
#define STOP_WAIT_S	30

enum { W_READV, W_MMAP, W_VERIFY, NR_WAYS };

static const char *const way_name[2] = { "readv", "mmap" };

/* Shared by all processes: how many writes the target has made. */
struct shared {
	uint64_t steps;
};

static struct shared *sh;
static size_t page;

static uint64_t steps_now(void)
{
	return __atomic_load_n(&sh->steps, __ATOMIC_ACQUIRE);
}

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void page_fill(char *p, uint64_t id)
{
	uint64_t *w = (uint64_t *)p, x = mix64(id) | 1;
	int i;

	for (i = 0; i < PAT_WORDS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
}

/* ---- the target ---- */

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* A step that visits every page once per round, spread out. */
static size_t stride_for(size_t n)
{
	size_t s = (n / 8 * 5) | 1;

	while (gcd(s, n) != 1)
		s += 2;
	return s % n ? s % n : 1;
}

static void target_dirty(char *p, size_t n, size_t stride)
{
	uint64_t k, *w;
	size_t pg;
	int j;

	for (j = 0; j < DIRTY_PER_TICK; j++) {
		k = sh->steps;
		pg = (k % n) * stride % n;
		w = (uint64_t *)(p + pg * page) + DIRTY_WORD;
		__atomic_store_n(w, k + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&sh->steps, k + 1, __ATOMIC_RELEASE);
	}
}

/* fork() with the memory populated: the page-table copy of the anchor. */
static double target_fork(void)
{
	double t0 = bench_now(), t;
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	t = bench_now() - t0;
	if (pid < 0)
		return -1;
	waitpid(pid, NULL, 0);
	return t;
}

/* A command from the bench, if any: 1 when the target should exit. */
static int target_command(int cmd, int rsp)
{
	double t;
	ssize_t r;
	char c;

	r = read(cmd, &c, 1);
	if (r < 0)
		return errno != EAGAIN;
	if (r == 0 || c != 'f')
		return 1;
	t = target_fork();
	return write(rsp, &t, sizeof(t)) != sizeof(t);
}

static void target_main(int cmd, int rsp, size_t len, int thp)
{
	struct timespec tick = { 0, TICK_NS };
	size_t n = len / page, i, stride = stride_for(n);
	char *raw, *p;

	raw = mmap(NULL, len + HPAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		_exit(2);
	p = (char *)(((unsigned long)raw + HPAGE - 1) & ~(HPAGE - 1));
	madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		page_fill(p + i * page, (uint64_t)thp << 40 | i);
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	fcntl(cmd, F_SETFL, O_NONBLOCK);
	if (write(rsp, &p, sizeof(p)) != sizeof(p))
		_exit(2);
	for (;;) {
		target_dirty(p, n, stride);
		nanosleep(&tick, NULL);
		if (target_command(cmd, rsp))
			_exit(0);
	}
}

struct target {
	pid_t pid;
	int cmd, rsp;
	char *addr;
};

static int target_start(struct target *t, size_t len, int thp)
{
	int a[2], b[2];

	if (pipe(a) || pipe(b))
		return -1;
	fflush(stdout);
	t->pid = fork();
	if (t->pid < 0)
		return -1;
	if (!t->pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(a[1]);
		close(b[0]);
		target_main(a[0], b[1], len, thp);
	}
	close(a[0]);
	close(b[1]);
	t->cmd = a[1];
	t->rsp = b[0];
	return read(t->rsp, &t->addr, sizeof(t->addr)) == sizeof(t->addr) ?
	       0 : -1;
}

static double target_fork_time(struct target *t)
{
	double s;
	char c = 'f';

	if (write(t->cmd, &c, 1) != 1 ||
	    read(t->rsp, &s, sizeof(s)) != sizeof(s))
		return -1;
	return s;
}

static void target_stop(struct target *t)
{
	int st;

	close(t->cmd);
	close(t->rsp);
	kill(t->pid, SIGKILL);
	waitpid(t->pid, &st, 0);
}

/* kB of the target's memory in huge pages. */
static long thp_kb(pid_t pid)
{
	char path[48], line[256];
	long ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld", &ret) == 1)
			break;
	fclose(f);
	return ret;
}

/* ---- the dumper: one way, in a child of its own ---- */

struct dump {
	pid_t pid;
	char *addr;
	size_t len;
	int thp;
	char img[256];
};

struct dres {
	double frozen, total, call;
	long long steps;	/* target writes while the copy was mapped */
	long long bad;		/* verification: pages unlike the reference */
	int err;
};

/* Wait until /proc says @pid stopped. */
static int wait_stopped(pid_t pid)
{
	double t0 = bench_now();
	char path[32], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	for (;;) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			break;
		buf[n] = 0;
		p = strrchr(buf, ')');
		if (p && p[1] && (p[2] == 'T' || p[2] == 't')) {
			close(fd);
			return 0;
		}
		if (bench_now() - t0 > STOP_WAIT_S)
			break;
		sched_yield();
	}
	close(fd);
	return -1;
}

static int freeze(pid_t pid)
{
	if (kill(pid, SIGSTOP) || wait_stopped(pid)) {
		fprintf(stderr, "dump: the target did not stop\n");
		kill(pid, SIGCONT);
		return -1;
	}
	return 0;
}

static int readv_all(pid_t pid, char *dst, const char *src, size_t n)
{
	struct iovec l, r;
	ssize_t got;

	while (n) {
		l.iov_base = dst;
		l.iov_len = n;
		r.iov_base = (void *)src;
		r.iov_len = n;
		got = process_vm_readv(pid, &l, 1, &r, 1, 0);
		if (got <= 0) {
			perror("process_vm_readv");
			return -1;
		}
		dst += got;
		src += got;
		n -= got;
	}
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w <= 0) {
			perror("write image");
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

static size_t chunk_at(const struct dump *d, size_t off)
{
	return d->len - off < CHUNK ? d->len - off : CHUNK;
}

/* A prefaulted CHUNK buffer of the case's page size. */
static char *chunk_buf(int thp)
{
	char *raw = mmap(NULL, CHUNK + HPAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *p;

	if (raw == MAP_FAILED)
		return NULL;
	p = (char *)(((unsigned long)raw + HPAGE - 1) & ~(HPAGE - 1));
	madvise(p, CHUNK, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(p, 0, CHUNK);
	return p;
}

static int dump_readv(const struct dump *d, int fd, struct dres *r)
{
	char *buf = chunk_buf(d->thp);
	double t0, tc;
	size_t off, n;
	int rc = 0;

	if (!buf)
		return -1;
	t0 = bench_now();
	if (freeze(d->pid))
		return -1;
	for (off = 0; off < d->len && !rc; off += n) {
		n = chunk_at(d, off);
		tc = bench_now();
		rc = readv_all(d->pid, buf, d->addr + off, n);
		r->call += bench_now() - tc;
		rc = rc ? rc : write_all(fd, buf, n);
	}
	kill(d->pid, SIGCONT);
	r->frozen = r->total = bench_now() - t0;
	return rc;
}

/* Freeze, take the copy, resume: the mmap way's frozen part. */
static char *copy_frozen(const struct dump *d, struct dres *r, char *ref)
{
	double t0 = bench_now(), tc;
	long ret;

	if (freeze(d->pid))
		return NULL;
	tc = bench_now();
	ret = bench_pvmmap(d->pid, d->addr, d->len, NULL, 0);
	r->call = bench_now() - tc;
	if (ret != -1 && ref && readv_all(d->pid, ref, d->addr, d->len)) {
		munmap((void *)ret, d->len);
		ret = -1;
		errno = EIO;
	}
	r->steps = -(long long)steps_now();
	kill(d->pid, SIGCONT);
	r->frozen = bench_now() - t0;
	if (ret == -1) {
		perror("process_vm_mmap");
		return NULL;
	}
	return (char *)ret;
}

static int dump_mmap(const struct dump *d, int fd, struct dres *r)
{
	double t0 = bench_now();
	size_t off, n;
	char *copy;
	int rc = 0;

	copy = copy_frozen(d, r, NULL);
	if (!copy)
		return -1;
	for (off = 0; off < d->len && !rc; off += n) {
		n = chunk_at(d, off);
		rc = write_all(fd, copy + off, n);
	}
	r->steps += steps_now();
	munmap(copy, d->len);
	r->total = bench_now() - t0;
	return rc;
}

static long long pages_unlike(const char *a, const char *b, size_t n)
{
	long long bad = 0;
	size_t off;

	if (!memcmp(a, b, n))
		return 0;
	for (off = 0; off < n; off += page)
		bad += !!memcmp(a + off, b + off, page);
	return bad;
}

/*
 * Check each chunk as soon as it is written, against the reference, then
 * punch it out of the file and drop the reference's chunk: the check
 * needs one reference, not a reference and a whole image, in memory.
 */
static int check_chunk(int fd, size_t off, size_t n, char *back, char *ref,
		       struct dres *r)
{
	if (pread(fd, back, n, off) != (ssize_t)n) {
		perror("read image back");
		return -1;
	}
	r->bad += pages_unlike(back, ref + off, n);
	fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, n);
	madvise(ref + off, n, MADV_DONTNEED);
	return 0;
}

static int dump_verify(const struct dump *d, int fd, struct dres *r)
{
	char *ref, *back = chunk_buf(0), *copy;
	size_t off, n;
	int rc = 0;

	ref = mmap(NULL, d->len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!back || ref == MAP_FAILED)
		return -1;
	copy = copy_frozen(d, r, ref);
	if (!copy)
		return -1;
	for (off = 0; off < d->len && !rc; off += n) {
		n = chunk_at(d, off);
		rc = write_all(fd, copy + off, n);
		rc = rc ? rc : check_chunk(fd, off, n, back, ref, r);
	}
	r->steps += steps_now();
	munmap(copy, d->len);
	munmap(ref, d->len);
	return rc;
}

static int (*const dump_fn[NR_WAYS])(const struct dump *, int,
				     struct dres *) = {
	dump_readv, dump_mmap, dump_verify,
};

static void dumper_main(int way, const struct dump *d, int out)
{
	struct dres r = { 0 };
	int fd;

	fd = open(d->img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(d->img);
		r.err = 1;
	} else {
		r.err = dump_fn[way](d, fd, &r) ? 1 : 0;
		close(fd);
		unlink(d->img);
	}
	if (write(out, &r, sizeof(r)) != sizeof(r))
		_exit(2);
	_exit(0);
}

/* Run one way in a fresh child; its peak RSS in kB into *rss_kb. */
static int run_dumper(int way, const struct dump *d, struct dres *r,
		      long *rss_kb)
{
	struct rusage ru;
	int p[2], st;
	ssize_t n;
	pid_t pid;

	if (pipe(p))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(p[0]);
		dumper_main(way, d, p[1]);
	}
	close(p[1]);
	n = read(p[0], r, sizeof(*r));
	close(p[0]);
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	*rss_kb = ru.ru_maxrss;
	return n == sizeof(*r) && !r->err && WIFEXITED(st) &&
	       !WEXITSTATUS(st) ? 0 : -1;
}

/* ---- one case: 4 KiB pages or THPs ---- */

struct series {
	double frozen[BENCH_MAX_REPEATS], total[BENCH_MAX_REPEATS];
	double call[BENCH_MAX_REPEATS], rss[BENCH_MAX_REPEATS];
	double steps[BENCH_MAX_REPEATS];
};

struct result {
	struct series w[2];
	double fork[BENCH_MAX_REPEATS];
	double fr_ratio[BENCH_MAX_REPEATS], tot_ratio[BENCH_MAX_REPEATS];
	int n, nways, ok;
	size_t mib;
};

static double med(const double *v, int n)
{
	double c[BENCH_MAX_REPEATS];

	memcpy(c, v, n * sizeof(*v));
	return bench_summarize(c, n).median;
}

static struct bench_stat stat_of(const double *v, int n)
{
	double c[BENCH_MAX_REPEATS];

	memcpy(c, v, n * sizeof(*v));
	return bench_summarize(c, n);
}

static int time_way(int way, struct dump *d, struct series *s, int i)
{
	struct dres r;
	long kb;

	if (run_dumper(way, d, &r, &kb)) {
		printf("dump: %s %s failed\n", d->thp ? "thp" : "4k",
		       way_name[way]);
		return -1;
	}
	s->frozen[i] = r.frozen;
	s->total[i] = r.total;
	s->call[i] = r.call;
	s->rss[i] = kb / 1024.0;
	s->steps[i] = r.steps;
	return 0;
}

static int verify_case(struct dump *d)
{
	struct dres r;
	long kb;

	if (run_dumper(W_VERIFY, d, &r, &kb)) {
		printf("dump %s: verification run failed\n",
		       d->thp ? "thp" : "4k");
		return -1;
	}
	if (r.bad)
		printf("dump %s: VERIFY FAILED: %lld pages of the image differ from the memory at freeze time\n",
		       d->thp ? "thp" : "4k", r.bad);
	else
		printf("dump %s: verified: the image equals the memory at freeze time, byte for byte (%zu MiB)\n",
		       d->thp ? "thp" : "4k", d->len >> 20);
	printf("dump %s: the target wrote %lld pages while the image was written from the copy\n",
	       d->thp ? "thp" : "4k", r.steps);
	if (!r.steps)
		printf("dump %s: the target wrote nothing meanwhile: copy-on-write untested\n",
		       d->thp ? "thp" : "4k");
	return r.bad || !r.steps ? -1 : 0;
}

static int timed_runs(struct dump *d, struct result *res, double budget)
{
	double start = bench_now();
	int want = bench_repeats(), i, k, way;

	for (i = 0; i < want; i++) {
		for (k = 0; k < res->nways; k++) {
			way = (i + k) % res->nways;
			if (time_way(way, d, &res->w[way], i))
				return -1;
		}
		res->n = i + 1;
		if (bench_now() - start > budget * (i + 1) / (i + 2))
			break;
	}
	return 0;
}

static int run_case(size_t mib, int thp, int nways, double budget,
		    struct result *res)
{
	struct dump d = { .len = mib << 20, .thp = thp };
	const char *dir = getenv("BENCH_DUMP_DIR");
	struct target t;
	int i;

	res->nways = nways;
	res->mib = mib;
	snprintf(d.img, sizeof(d.img), "%s/mmr-dump-%d.img",
		 dir ? dir : "/dev/shm", getpid());
	if (target_start(&t, d.len, thp))
		return -1;
	d.pid = t.pid;
	d.addr = t.addr;
	printf("dump %s: target %d, %zu MiB at %p, %ld kB in huge pages\n",
	       thp ? "thp" : "4k", t.pid, mib, t.addr, thp_kb(t.pid));
	res->ok = !timed_runs(&d, res, budget);
	for (i = 0; res->ok && i < res->n; i++) {
		res->fork[i] = target_fork_time(&t);
		res->ok = res->fork[i] >= 0;
	}
	printf("dump %s: after the timed runs %ld kB in huge pages\n",
	       thp ? "thp" : "4k", thp_kb(t.pid));
	if (res->ok && nways == 2)
		res->ok = !verify_case(&d);
	target_stop(&t);
	return res->ok ? 0 : -1;
}

/* ---- report ---- */

static void row(const char *kind, const char *what, const struct result *r,
		const double *v, const char *unit, const char *deltas)
{
	char cas[96], size[32];

	snprintf(cas, sizeof(cas), "%s %s", kind, what);
	snprintf(size, sizeof(size), "%zuMiB", r->mib);
	bench_row("dump", cas, size, stat_of(v, r->n), unit, deltas);
}

static void report_ways(const char *kind, struct result *r)
{
	const struct series *a = &r->w[W_READV], *b = &r->w[W_MMAP];
	char d[160];
	int i;

	snprintf(d, sizeof(d), "total = frozen; readv calls %.4f s, peak RSS %.0f MiB",
		 med(a->call, r->n), med(a->rss, r->n));
	row(kind, "readv frozen", r, a->frozen, "s", d);
	row(kind, "readv peak RSS", r, a->rss, "MiB", "ru_maxrss");
	if (r->nways < 2)
		return;
	snprintf(d, sizeof(d), "process_vm_mmap call %.4f s",
		 med(b->call, r->n));
	row(kind, "mmap frozen", r, b->frozen, "s", d);
	snprintf(d, sizeof(d), "peak RSS %.0f MiB, target wrote %.0f pages meanwhile (COW copies)",
		 med(b->rss, r->n), med(b->steps, r->n));
	row(kind, "mmap total", r, b->total, "s", d);
	row(kind, "mmap peak RSS", r, b->rss, "MiB",
	    "ru_maxrss; counts the copy's pages, shared with the target");
	for (i = 0; i < r->n; i++) {
		r->fr_ratio[i] = a->frozen[i] / b->frozen[i];
		r->tot_ratio[i] = a->total[i] / b->total[i];
	}
	row(kind, "frozen readv/mmap", r, r->fr_ratio, "x", "same repeat");
	row(kind, "total readv/mmap", r, r->tot_ratio, "x", "same repeat");
}

static void report_anchor(const char *kind, struct result *r, char *line,
			  size_t sz)
{
	double per = 1024.0 / r->mib, pv[BENCH_MAX_REPEATS];
	double fk[BENCH_MAX_REPEATS], q[BENCH_MAX_REPEATS];
	size_t used = strlen(line);
	int i;

	for (i = 0; i < r->n; i++) {
		fk[i] = r->fork[i] * per;
		pv[i] = r->w[W_MMAP].call[i] * per;
		q[i] = fk[i] / pv[i];
	}
	row(kind, "anchor fork", r, fk, "s/GiB", "fork() of the target");
	if (r->nways < 2) {
		snprintf(line + used, sz - used, " %s: fork %.4f s/GiB;",
			 kind, med(fk, r->n));
		return;
	}
	row(kind, "anchor process_vm_mmap", r, pv, "s/GiB",
	    "the call alone, target stopped");
	row(kind, "anchor fork/process_vm_mmap", r, q, "x", "");
	snprintf(line + used, sz - used,
		 " %s: process_vm_mmap %.4f s/GiB, fork %.4f s/GiB (%.2fx);",
		 kind, med(pv, r->n), med(fk, r->n), med(q, r->n));
}

static void headline(const char *prefix, const struct result *r)
{
	const struct series *a = &r->w[W_READV], *b = &r->w[W_MMAP];

	printf("%s: %zu MiB, frozen %.1fx shorter, total %.2fx vs process_vm_readv\n",
	       prefix, r->mib, med(a->frozen, r->n) / med(b->frozen, r->n),
	       med(a->total, r->n) / med(b->total, r->n));
}


static int have_pvmmap(void)
{
	errno = 0;
	return bench_pvmmap(getpid(), NULL, 0, NULL, 0) != -1 ||
	       errno != ENOSYS;
}

static double budget(void)
{
	const char *s = getenv("BENCH_BUDGET_S");

	return s && atof(s) > 0 ? atof(s) : DEF_BUDGET;
}

static struct result res[2];

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 1024;
	int nways = 2, thp, ok = 1;
	double start = bench_now(), lim = budget();
	long long avail = bench_meminfo_kb("MemAvailable");
	char anchor[512] = "anchor:";

	page = sysconf(_SC_PAGESIZE);
	sh = mmap(NULL, page, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!mib || sh == MAP_FAILED) {
		fprintf(stderr, "usage: bench-dump [MiB]\n");
		return 2;
	}
	if (!have_pvmmap()) {
		printf("dump: process_vm_mmap: ENOSYS: this kernel lacks the mm-remote series; running the readv way and the fork anchor alone\n");
		nways = 1;
	}
	if (avail > 0 && avail < (long long)mib * 1024 * 5 / 2)
		printf("dump: MemAvailable %lld kB: less than 2.5x %zu MiB (target, image, copy-on-write copies)\n",
		       avail, mib);
	for (thp = 0; thp < 2; thp++) {
		double left = lim - (bench_now() - start);

		if (run_case(mib, thp, nways, thp ? left : left / 2, &res[thp]))
			ok = 0;
	}
	printf("dump: the dumper's peak RSS counts the pages of process_vm_mmap's copy, which it shares with the target\n");
	bench_header();
	for (thp = 0; thp < 2; thp++) {
		if (!res[thp].n)
			continue;
		report_ways(thp ? "thp" : "4k", &res[thp]);
		report_anchor(thp ? "thp" : "4k", &res[thp], anchor,
			      sizeof(anchor));
	}
	printf("%s\n", anchor);
	printf("dump: %d and %d repeats (4k, thp) in %.0f s (budget %.0f s)\n",
	       res[0].n, res[1].n, bench_now() - start, lim);
	if (nways < 2)
		return 77;
	if (!ok || !res[0].n || !res[1].n) {
		printf("dump: FAILED\n");
		return 1;
	}
	headline("dump thp", &res[1]);
	headline("dump", &res[0]);
	return 0;
}
