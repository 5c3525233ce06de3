// SPDX-License-Identifier: GPL-2.0
/*
 * bench-app-compaction: compact a cached app the way an activity manager
 * does: reclaim its anonymous memory, deactivate its file pages.
 *
 *   bench-app-compaction [MiB]        (default 400: resident bytes)
 *
 * A forked target lays itself out like an app: 640 shared-library-like
 * triples (r-xp, r--p, rw-p private mappings of one memfd each) and 1280
 * anonymous heaps of 4 KiB..64 MiB on a log-normal spread (fixed seed),
 * separated by one-page holes or PROT_NONE guards; every page resident,
 * its first 1 KiB pseudo-random and unique, the rest zero.  Three
 * strategies, each on a freshly built identical target, two passes each
 * (pass 1: all resident; pass 2: the same again, little left to do):
 *
 *   (a) maps+process_madvise: read /proc/<pid>/maps, then process_madvise
 *       (440), at most UIO_MAXIOV ranges a call: anon ranges MADV_PAGEOUT,
 *       file ranges MADV_COLD (how Android compacts an app on 6.12);
 *   (b) seed filters: ONE pidfd_madvise() of two elements covering the
 *       whole user address space: MADV_RECLAIM | MADV_ANONYMOUS_FILTER and
 *       MADV_COOL | MADV_FILE_FILTER; no maps read;
 *   (c) maps+pidfd_madvise: read the maps, then pidfd_madvise() with a
 *       hint per range (the same as (a)'s), UIO_MAXIOV ranges a call.
 *
 * Times include reading and parsing the maps.  Work done is taken from
 * /proc/vmstat: pswpout (anon pages reclaimed: written to swap; 6.12's
 * MADV_PAGEOUT reclaims through reclaim_pages(), which does not count
 * pgsteal_*) and pgdeactivate (pages moved off the active list by the
 * cold hint).  Every strategy must do (a)'s work within 5%, and the target
 * checks every page of its data afterwards; exit 1 otherwise.  Rounds of
 * the three strategies are repeated $BENCH_REPEATS times, fewer when the
 * next round would pass $BENCH_BUDGET_S seconds (default 480).  Exit 77
 * without pidfd_madvise() (after running (a) alone).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/mman.h>
#include <linux/pidfd_madvise.h>
#include <asm/unistd.h>

#include "bench.h"

#define NR_LIBS		640
#define NR_HEAPS	1280
#define NR_ITEMS	(NR_LIBS + NR_HEAPS)
#define PAT_WORDS	128	/* pseudo-random words opening each page */
#define FILE_PCT	25	/* resident share of the library files */
#define GUARD_PCT	25	/* gaps next to a heap that are PROT_NONE */
#define LAYOUT_SEED	0x6d6d722d61707031ULL
#define MAX_ELEMS	UIO_MAXIOV	/* ranges per call, both calls */
#define MAPS_MAX	65536
#define MAPS_BUF	(16UL << 20)
#define WORK_PCT	5	/* allowed difference in work done */
#define WORK_SLACK	32	/* pages: per-CPU LRU batches drain late */
#define DEF_BUDGET	480

/* The whole user address space, for the filtered calls of (b). */
#if defined(__aarch64__)
#define USER_SPAN	(1UL << 48)
#else
#define USER_SPAN	(1UL << 47)
#endif

enum { S_MAPS_440, S_FILTERS, S_MAPS_PMADV, NR_STRAT };

static const char *const strat_name[NR_STRAT] = {
	"(a) maps+process_madvise",
	"(b) pidfd_madvise seed filters",
	"(c) maps+pidfd_madvise",
};

enum { VM_PSWPOUT, VM_PGDEACTIVATE, VM_PSWPIN, NR_VM };

static const char *const vm_key[NR_VM] = {
	"pswpout", "pgdeactivate", "pswpin",
};

enum { SEG_TEXT, SEG_RODATA, SEG_DATA, SEG_HEAP, SEG_DATA_W };

static size_t page;

/* ---- data: a unique, verifiable page ---- */

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t page_id(int item, int seg, size_t pg)
{
	return ((uint64_t)item << 40) | ((uint64_t)seg << 32) | pg;
}

static inline uint64_t xs_next(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

static void page_fill(char *p, uint64_t id)
{
	uint64_t *w = (uint64_t *)p, x = mix64(id) | 1;
	int i;

	for (i = 0; i < PAT_WORDS; i++) {
		x = xs_next(x);
		w[i] = x;
	}
}

static int page_ok(const char *p, uint64_t id)
{
	const uint64_t *w = (const uint64_t *)p;
	uint64_t x = mix64(id) | 1, rest = 0;
	size_t i;

	for (i = 0; i < PAT_WORDS; i++) {
		x = xs_next(x);
		if (w[i] != x)
			return 0;
	}
	for (; i < page / sizeof(*w); i++)
		rest |= w[i];
	return !rest;
}

/* ---- layout: sizes drawn from a fixed seed ---- */

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix64(r->s);
}

static double rng_u01(struct rng *r)
{
	return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Close to a standard normal: Irwin-Hall sum of twelve uniforms. */
static double rng_normal(struct rng *r)
{
	double s = -6;
	int i;

	for (i = 0; i < 12; i++)
		s += rng_u01(r);
	return s;
}

/* 2^f for 0 <= f < 1, by series: no libm in a static bench. */
static double pow2_frac(double f)
{
	double x = f * 0.69314718055994531, term = 1, sum = 1;
	int i;

	for (i = 1; i < 16; i++) {
		term *= x / i;
		sum += term;
	}
	return sum;
}

static size_t page_round(size_t n)
{
	n = (n + page - 1) & ~(page - 1);
	return n ? n : page;
}

/* Bytes for log2 size @l moved by @shift, within [2^lo, 2^hi]. */
static size_t log_size(double l, double shift, int lo, int hi)
{
	double v = l + shift;
	int n;

	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	n = (int)v;
	return page_round((size_t)((double)(1UL << n) * pow2_frac(v - n)));
}

struct item {
	char *addr;
	size_t len[3];	/* heap: len[0]; library: text, rodata, data */
	int lib;
};

static void lib_lens(struct item *it, size_t text)
{
	it->len[0] = text;
	it->len[1] = page_round(text / 4);
	it->len[2] = page_round(text / 8);
}

static size_t item_bytes(const struct item *it)
{
	return it->len[0] + it->len[1] + it->len[2];
}

#define HEAP_LO		12	/* 4 KiB */
#define HEAP_HI		26	/* 64 MiB */
#define LIB_LO		12
#define LIB_HI		22	/* 4 MiB of text */

static size_t sizes_sum(const double *l, int n, double shift, int lib)
{
	struct item it = { 0 };
	size_t sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (lib)
			lib_lens(&it, log_size(l[i], shift, LIB_LO, LIB_HI));
		else
			it.len[0] = log_size(l[i], shift, HEAP_LO, HEAP_HI);
		sum += item_bytes(&it);
	}
	return sum;
}

/* The multiplier (as a log2 shift) that brings the sizes to @want bytes. */
static double fit_shift(const double *l, int n, int lib, size_t want)
{
	double a = -16, b = 16, m;
	int i;

	for (i = 0; i < 48; i++) {
		m = (a + b) / 2;
		if (sizes_sum(l, n, m, lib) < want)
			a = m;
		else
			b = m;
	}
	return (a + b) / 2;
}

struct layout {
	struct item it[NR_ITEMS];
	unsigned char guard[NR_ITEMS];	/* PROT_NONE page after item i */
	size_t file_bytes, heap_bytes, heap_min, heap_max;
	int guards;
};

static void layout_sizes(struct layout *lo, struct rng *r, size_t bytes)
{
	static double hl[NR_HEAPS], ll[NR_LIBS];
	double hs, ls;
	int i, top = 0;

	for (i = 0; i < NR_HEAPS; i++) {
		hl[i] = 16 + 2.8 * rng_normal(r);
		if (hl[i] > hl[top])
			top = i;
	}
	hl[top] = 2 * HEAP_HI;	/* the app's main heap: at the cap */
	for (i = 0; i < NR_LIBS; i++)
		ll[i] = 16 + 1.3 * rng_normal(r);
	hs = fit_shift(hl, NR_HEAPS, 0, bytes / 100 * (100 - FILE_PCT));
	ls = fit_shift(ll, NR_LIBS, 1, bytes / 100 * FILE_PCT);

	lo->heap_min = SIZE_MAX;
	for (i = 0; i < NR_HEAPS; i++) {
		struct item *it = &lo->it[i];

		it->len[0] = log_size(hl[i], hs, HEAP_LO, HEAP_HI);
		lo->heap_bytes += it->len[0];
		if (it->len[0] < lo->heap_min)
			lo->heap_min = it->len[0];
		if (it->len[0] > lo->heap_max)
			lo->heap_max = it->len[0];
	}
	for (i = 0; i < NR_LIBS; i++) {
		struct item *it = &lo->it[NR_HEAPS + i];

		it->lib = 1;
		lib_lens(it, log_size(ll[i], ls, LIB_LO, LIB_HI));
		lo->file_bytes += item_bytes(it);
	}
}

/* Mix libraries and heaps in address order; pick the guard gaps. */
static void layout_order(struct layout *lo, struct rng *r)
{
	struct item tmp;
	int i, j;

	for (i = NR_ITEMS - 1; i > 0; i--) {
		j = rng_next(r) % (i + 1);
		tmp = lo->it[i];
		lo->it[i] = lo->it[j];
		lo->it[j] = tmp;
	}
	for (i = 0; i + 1 < NR_ITEMS; i++) {
		int heap = !lo->it[i].lib || !lo->it[i + 1].lib;

		lo->guard[i] = heap && rng_next(r) % 100 < GUARD_PCT;
		lo->guards += lo->guard[i];
	}
}

/* ---- the target: build, then verify on request ---- */

static void die_target(const char *what)
{
	perror(what);
	_exit(2);
}

static void lib_fill_file(int fd, const struct item *it, int idx)
{
	size_t total = item_bytes(it), off, seg, pg;
	char *m;

	if (ftruncate(fd, total))
		die_target("ftruncate");
	m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die_target("mmap memfd");
	for (off = 0, seg = 0; seg < 3; off += it->len[seg++])
		for (pg = 0; pg < it->len[seg] / page; pg++)
			page_fill(m + off + pg * page, page_id(idx, seg, pg));
	munmap(m, total);
}

static void lib_build(struct item *it, int idx, char *at)
{
	static const int prot[3] = {
		PROT_READ | PROT_EXEC, PROT_READ, PROT_READ | PROT_WRITE,
	};
	size_t off = 0, pg;
	char name[16];
	int fd, seg;

	snprintf(name, sizeof(name), "l%04d", idx);
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		die_target("memfd_create");
	lib_fill_file(fd, it, idx);
	for (seg = 0; seg < 3; off += it->len[seg++])
		if (mmap(at + off, it->len[seg], prot[seg],
			 MAP_PRIVATE | MAP_FIXED, fd, off) == MAP_FAILED)
			die_target("mmap library");
	close(fd);
	it->addr = at;
	/* the data segment is written, as relocations and .data are */
	at += it->len[0] + it->len[1];
	for (pg = 0; pg < it->len[2] / page; pg++)
		page_fill(at + pg * page, page_id(idx, SEG_DATA_W, pg));
}

static void heap_build(struct item *it, int idx, char *at)
{
	size_t pg;

	if (mmap(at, it->len[0], PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		die_target("mmap heap");
	madvise(at, it->len[0], MADV_NOHUGEPAGE);
	it->addr = at;
	for (pg = 0; pg < it->len[0] / page; pg++)
		page_fill(at + pg * page, page_id(idx, SEG_HEAP, pg));
}

/*
 * Touch every page twice through GUP (FOLL_TOUCH): pages start on the
 * inactive list, and the cold hint only counts the active ones it moves.
 */
static void layout_activate(struct layout *lo)
{
	int i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < NR_ITEMS; i++)
			if (madvise(lo->it[i].addr, item_bytes(&lo->it[i]),
				    MADV_POPULATE_READ))
				die_target("MADV_POPULATE_READ");
}

static void layout_build(struct layout *lo, size_t bytes)
{
	size_t span = page, i;
	struct rng r = { LAYOUT_SEED };
	char *base, *at;

	layout_sizes(lo, &r, bytes);
	layout_order(lo, &r);
	for (i = 0; i < NR_ITEMS; i++)
		span += item_bytes(&lo->it[i]) + page;
	base = mmap(NULL, span, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		die_target("mmap reserve");
	munmap(base, page);
	at = base + page;
	for (i = 0; i < NR_ITEMS; i++) {
		if (lo->it[i].lib)
			lib_build(&lo->it[i], i, at);
		else
			heap_build(&lo->it[i], i, at);
		at += item_bytes(&lo->it[i]);
		/* a hole keeps equal neighbours apart; a guard stays */
		if (!lo->guard[i])
			munmap(at, page);
		at += page;
	}
	if (at < base + span)
		munmap(at, base + span - at);
	layout_activate(lo);
}

static long item_bad(const struct item *it, int idx)
{
	static const int seg_id[3] = { SEG_TEXT, SEG_RODATA, SEG_DATA_W };
	size_t off = 0, pg;
	long bad = 0;
	int seg;

	if (!it->lib) {
		for (pg = 0; pg < it->len[0] / page; pg++)
			bad += !page_ok(it->addr + pg * page,
					page_id(idx, SEG_HEAP, pg));
		return bad;
	}
	for (seg = 0; seg < 3; off += it->len[seg++])
		for (pg = 0; pg < it->len[seg] / page; pg++)
			bad += !page_ok(it->addr + off + pg * page,
					page_id(idx, seg_id[seg], pg));
	return bad;
}

struct tinfo {
	long vmas, pages, file_pages, heap_pages, guards;
	size_t heap_min, heap_max;
};

static long self_vmas(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void target_main(int cmd, int rsp, size_t bytes)
{
	static struct layout lo;
	struct tinfo ti = { 0 };
	long bad;
	int i;
	char c;

	layout_build(&lo, bytes);
	ti.vmas = self_vmas();
	ti.file_pages = lo.file_bytes / page;
	ti.heap_pages = lo.heap_bytes / page;
	ti.pages = ti.file_pages + ti.heap_pages;
	ti.guards = lo.guards;
	ti.heap_min = lo.heap_min;
	ti.heap_max = lo.heap_max;
	if (write(rsp, &ti, sizeof(ti)) != sizeof(ti))
		_exit(2);
	while (read(cmd, &c, 1) == 1 && c == 'v') {
		for (bad = 0, i = 0; i < NR_ITEMS; i++)
			bad += item_bad(&lo.it[i], i);
		if (write(rsp, &bad, sizeof(bad)) != sizeof(bad))
			_exit(2);
	}
	_exit(0);
}

/* ---- the compacting side ---- */

struct target {
	pid_t pid;
	int pidfd, cmd, rsp;
	struct tinfo ti;
};

static int target_start(struct target *t, size_t bytes)
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
		target_main(a[0], b[1], bytes);
	}
	close(a[0]);
	close(b[1]);
	t->cmd = a[1];
	t->rsp = b[0];
	if (read(t->rsp, &t->ti, sizeof(t->ti)) != sizeof(t->ti)) {
		fprintf(stderr, "app-compaction: the target failed to build\n");
		return -1;
	}
	t->pidfd = syscall(__NR_pidfd_open, t->pid, 0);
	if (t->pidfd < 0) {
		perror("pidfd_open");
		return -1;
	}
	return 0;
}

/* The target checks every page of its data: -1 if it could not. */
static long target_verify(struct target *t)
{
	long bad;
	char c = 'v';

	if (write(t->cmd, &c, 1) != 1 ||
	    read(t->rsp, &bad, sizeof(bad)) != sizeof(bad))
		return -1;
	return bad;
}

static void target_stop(struct target *t)
{
	int st;

	close(t->cmd);
	close(t->rsp);
	close(t->pidfd);
	kill(t->pid, SIGKILL);
	waitpid(t->pid, &st, 0);
}

/* Ranges from /proc/<pid>/maps, by kind; buffers live across runs. */
struct maps {
	char *buf;
	struct iovec *anon, *file, *all, *resv;
	int *beh;
	long *res;
	int nanon, nfile, nall;
};

static int maps_alloc(struct maps *m)
{
	m->buf = malloc(MAPS_BUF);
	m->anon = calloc(MAPS_MAX, sizeof(*m->anon));
	m->file = calloc(MAPS_MAX, sizeof(*m->file));
	m->all = calloc(MAPS_MAX, sizeof(*m->all));
	m->resv = calloc(MAPS_MAX, sizeof(*m->resv));
	m->beh = calloc(MAPS_MAX, sizeof(*m->beh));
	m->res = calloc(MAPS_MAX, sizeof(*m->res));
	if (m->buf)
		memset(m->buf, 0, 1 << 20);	/* fault it in before timing */
	return m->buf && m->anon && m->file && m->all && m->resv &&
	       m->beh && m->res ? 0 : -1;
}

/* Read the whole maps file; counts the syscalls it makes. */
static long maps_read(pid_t pid, char *buf, long *syscalls)
{
	char path[32];
	long n = 0, r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	fd = open(path, O_RDONLY);
	(*syscalls)++;
	if (fd < 0)
		return -1;
	do {
		r = read(fd, buf + n, MAPS_BUF - 1 - n);
		(*syscalls)++;
		n += r > 0 ? r : 0;
	} while (r > 0 && n < (long)MAPS_BUF - 1);
	close(fd);
	(*syscalls)++;
	buf[n] = 0;
	return r < 0 ? -1 : n;
}

static const char *parse_hex(const char *p, unsigned long *v)
{
	unsigned long x = 0;
	int d;

	for (;; p++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			break;
		x = x << 4 | d;
	}
	*v = x;
	return p;
}

enum { K_SKIP, K_ANON, K_FILE };

/*
 * One maps line: "start-end perms offset dev inode   name".  Skipped:
 * ranges that cannot be read (guards) and the kernel's special mappings
 * ([vdso], [vvar], [vsyscall], ...), which a hint refuses.  File: an
 * inode or a shared mapping; anonymous: the rest, [heap] and [stack].
 */
static int maps_line(const char *p, struct iovec *iov)
{
	unsigned long start, end, x;
	const char *perms;

	p = parse_hex(p, &start);
	if (*p++ != '-')
		return -1;
	p = parse_hex(p, &end);
	perms = ++p;
	p = parse_hex(p + 5, &x);	/* offset */
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')		/* device */
		p++;
	for (x = 0, p++; *p >= '0' && *p <= '9'; p++)
		x = x * 10 + *p - '0';
	while (*p == ' ')
		p++;
	iov->iov_base = (void *)start;
	iov->iov_len = end - start;
	if (perms[0] != 'r')
		return K_SKIP;
	if (*p == '[' && strncmp(p, "[heap]", 6) &&
	    strncmp(p, "[stack]", 7) && strncmp(p, "[anon:", 6))
		return K_SKIP;
	return x || perms[3] == 's' ? K_FILE : K_ANON;
}

/* Sort the maps into anon and file lists (a) and one hinted list (c). */
static int maps_parse(struct maps *m, char *p)
{
	struct iovec iov;
	char *nl;
	int k;

	m->nanon = m->nfile = m->nall = 0;
	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		k = maps_line(p, &iov);
		if (k < 0)
			return -1;
		if (k == K_SKIP)
			continue;
		if (m->nall == MAPS_MAX)
			return -1;
		if (k == K_ANON)
			m->anon[m->nanon++] = iov;
		else
			m->file[m->nfile++] = iov;
		m->beh[m->nall] = k == K_ANON ? MADV_PAGEOUT : MADV_COLD;
		m->resv[m->nall].iov_base = &m->res[m->nall];
		m->resv[m->nall].iov_len = sizeof(long);
		m->all[m->nall++] = iov;
	}
	return 0;
}

struct cell {		/* one pass of one strategy in one round */
	double t;
	long long vm[NR_VM];
	long syscalls, calls;
	long long res[2];	/* pidfd_madvise: anon reclaimed, file deact. */
};

/* process_madvise() over @v in calls of MAX_ELEMS and MAX_RW_COUNT. */
static int pm_440(int pidfd, const struct iovec *v, int n, int advice,
		  struct cell *c)
{
	size_t cap = INT_MAX & ~(page - 1), sum;
	long ret;
	int i = 0, k;

	while (i < n) {
		for (sum = 0, k = 0; i + k < n && k < MAX_ELEMS &&
		     sum + v[i + k].iov_len <= cap; k++)
			sum += v[i + k].iov_len;
		if (!k)
			return -1;	/* one range above 2 GiB: not here */
		ret = syscall(__NR_process_madvise, pidfd, v + i, k, advice, 0);
		c->calls++;
		c->syscalls++;
		if (ret != (long)sum) {
			fprintf(stderr, "process_madvise(%d): %ld of %zu bytes: %s\n",
				advice, ret, sum, ret < 0 ? strerror(errno) : "short");
			return -1;
		}
		i += k;
	}
	return 0;
}

static int strat_maps_440(struct target *t, struct maps *m, struct cell *c)
{
	if (maps_read(t->pid, m->buf, &c->syscalls) < 0 ||
	    maps_parse(m, m->buf))
		return -1;
	if (pm_440(t->pidfd, m->anon, m->nanon, MADV_PAGEOUT, c) ||
	    pm_440(t->pidfd, m->file, m->nfile, MADV_COLD, c))
		return -1;
	return 0;
}

static long call_pidfd_madvise(int pidfd, int n, const int *beh,
			       const struct iovec *resv,
			       const struct iovec *ranges)
{
	struct pr_madvise_param r = { sizeof(r), resv };
	struct pr_madvise_param q = { sizeof(q), ranges };

	return syscall(__NR_pidfd_madvise, pidfd, (ssize_t)n, beh, &r, &q, 0UL);
}

static int strat_filters(struct target *t, struct maps *m, struct cell *c)
{
	static const int beh[2] = {
		(int)(MADV_RECLAIM | MADV_ANONYMOUS_FILTER),
		(int)(MADV_COOL | MADV_FILE_FILTER),
	};
	long res[2] = { 0, 0 };
	struct iovec resv[2] = {
		{ &res[0], sizeof(long) }, { &res[1], sizeof(long) },
	};
	struct iovec all[2] = {
		{ NULL, USER_SPAN }, { NULL, USER_SPAN },
	};

	(void)m;
	c->calls = c->syscalls = 1;
	if (call_pidfd_madvise(t->pidfd, 2, beh, resv, all)) {
		perror("pidfd_madvise");
		return -1;
	}
	if (res[0] < 0 || res[1] < 0) {
		fprintf(stderr, "pidfd_madvise: results %ld, %ld\n",
			res[0], res[1]);
		return -1;
	}
	c->res[0] = res[0];
	c->res[1] = res[1];
	return 0;
}

static int strat_maps_pmadv(struct target *t, struct maps *m, struct cell *c)
{
	int i, k;

	if (maps_read(t->pid, m->buf, &c->syscalls) < 0 ||
	    maps_parse(m, m->buf))
		return -1;
	for (i = 0; i < m->nall; i += k) {
		k = m->nall - i < MAX_ELEMS ? m->nall - i : MAX_ELEMS;
		c->calls++;
		c->syscalls++;
		if (call_pidfd_madvise(t->pidfd, k, m->beh + i, m->resv + i,
				       m->all + i)) {
			perror("pidfd_madvise");
			return -1;
		}
	}
	c->res[0] = c->res[1] = 0;
	for (i = 0; i < m->nall; i++) {
		if (m->res[i] < 0) {
			fprintf(stderr, "pidfd_madvise: range %p: %s\n",
				m->all[i].iov_base, strerror(-m->res[i]));
			return -1;
		}
		c->res[m->beh[i] == MADV_COLD] += m->res[i];
	}
	return 0;
}

static int (*const strat_fn[NR_STRAT])(struct target *, struct maps *,
				       struct cell *) = {
	strat_maps_440, strat_filters, strat_maps_pmadv,
};

static void vm_read(long long *v)
{
	char key[64];
	long long val;
	FILE *f = fopen("/proc/vmstat", "r");
	int i;

	for (i = 0; i < NR_VM; i++)
		v[i] = 0;
	if (!f)
		return;
	while (fscanf(f, "%63s %lld", key, &val) == 2)
		for (i = 0; i < NR_VM; i++)
			if (!strcmp(key, vm_key[i]))
				v[i] = val;
	fclose(f);
}

static struct cell cells[NR_STRAT][2][BENCH_MAX_REPEATS];
static struct tinfo tinfo;

/* One strategy, two passes, on a fresh target; -1 on any failure. */
static int run_one(int s, int round, size_t bytes, struct maps *m)
{
	long long v0[NR_VM], v1[NR_VM];
	struct target t;
	int pass, i, rc = 0;
	long bad;
	double t0;

	if (target_start(&t, bytes))
		return -1;
	tinfo = t.ti;
	for (pass = 0; pass < 2 && !rc; pass++) {
		struct cell *c = &cells[s][pass][round];

		memset(c, 0, sizeof(*c));
		c->res[0] = c->res[1] = -1;
		vm_read(v0);
		t0 = bench_now();
		rc = strat_fn[s](&t, m, c);
		c->t = bench_now() - t0;
		vm_read(v1);
		for (i = 0; i < NR_VM; i++)
			c->vm[i] = v1[i] - v0[i];
	}
	bad = target_verify(&t);
	if (bad) {
		printf("app-compaction: %s: %ld pages of the app's data %s\n",
		       strat_name[s], bad, bad < 0 ? "unchecked" : "CORRUPT");
		rc = -1;
	}
	target_stop(&t);
	return rc;
}

/* ---- report ---- */

static struct bench_stat stat_of(int s, int pass, int n, int what)
{
	double v[BENCH_MAX_REPEATS];
	int i;

	for (i = 0; i < n; i++) {
		const struct cell *c = &cells[s][pass][i];

		v[i] = what < 0 ? c->t : what < NR_VM ? c->vm[what] :
		       c->res[what - NR_VM];
	}
	return bench_summarize(v, n);
}

static void report_strat(int s, int n, const char *size)
{
	char cas[96], d[256];
	int pass;

	for (pass = 0; pass < 2; pass++) {
		const struct cell *c = &cells[s][pass][0];

		snprintf(cas, sizeof(cas), "%s pass %d", strat_name[s],
			 pass + 1);
		snprintf(d, sizeof(d),
			 "syscalls %ld (%ld madvise), pswpout %.0f, pgdeactivate %.0f, pswpin %.0f",
			 c->syscalls, c->calls,
			 stat_of(s, pass, n, VM_PSWPOUT).median,
			 stat_of(s, pass, n, VM_PGDEACTIVATE).median,
			 stat_of(s, pass, n, VM_PSWPIN).median);
		bench_row("app-compaction", cas, size, stat_of(s, pass, n, -1),
			  "s", d);
	}
}

static void print_strat(int s, int n)
{
	const struct cell *c = &cells[s][0][0];
	int pass;

	printf("%s: %ld syscalls a pass (%ld madvise calls)\n", strat_name[s],
	       c->syscalls, c->calls);
	for (pass = 0; pass < 2; pass++) {
		printf("  pass %d: %.4f s median; reclaimed %.0f pages (pswpout), deactivated %.0f (pgdeactivate), swapped in %.0f",
		       pass + 1, stat_of(s, pass, n, -1).median,
		       stat_of(s, pass, n, VM_PSWPOUT).median,
		       stat_of(s, pass, n, VM_PGDEACTIVATE).median,
		       stat_of(s, pass, n, VM_PSWPIN).median);
		if (s != S_MAPS_440)
			printf("; results: anon %.0f reclaimed, file %.0f deactivated",
			       stat_of(s, pass, n, NR_VM).median,
			       stat_of(s, pass, n, NR_VM + 1).median);
		printf("\n");
	}
}

/* Pass 1 of @s did (a)'s work: pages reclaimed and deactivated. */
static int same_work(int s, int n)
{
	int ok = 1, k;

	for (k = VM_PSWPOUT; k <= VM_PGDEACTIVATE; k++) {
		double a = stat_of(S_MAPS_440, 0, n, k).median;
		double b = stat_of(s, 0, n, k).median;
		double tol = a * WORK_PCT / 100;

		if (tol < WORK_SLACK)
			tol = WORK_SLACK;
		if (b < a - tol || b > a + tol) {
			printf("app-compaction: %s pass 1 %s %.0f, (a) %.0f: more than %d%% apart\n",
			       strat_name[s], vm_key[k], b, a, WORK_PCT);
			ok = 0;
		}
	}
	return ok;
}

static void report_ratio(int s, int pass, int n, const char *size)
{
	double r[BENCH_MAX_REPEATS];
	char cas[128];
	int i;

	for (i = 0; i < n; i++)
		r[i] = cells[S_MAPS_440][pass][i].t /
		       (cells[s][pass][i].t > 0 ? cells[s][pass][i].t : 1e-9);
	snprintf(cas, sizeof(cas), "pass %d (a)/%.3s", pass + 1,
		 strat_name[s]);
	bench_row("app-compaction", cas, size, bench_summarize(r, n), "x",
		  "time (a) / time, same round");
}

/* (a)'s median time over the best of (b) and (c). */
static double best_ratio(int pass, int n, int *best)
{
	double a = stat_of(S_MAPS_440, pass, n, -1).median;
	double b = stat_of(S_FILTERS, pass, n, -1).median;
	double c = stat_of(S_MAPS_PMADV, pass, n, -1).median;

	*best = b <= c ? S_FILTERS : S_MAPS_PMADV;
	return a / (b <= c ? b : c);
}

static int report(int n, int nstrat)
{
	double r1, r2;
	char size[32];
	int s, ok = 1, b1, b2;

	snprintf(size, sizeof(size), "%ld VMAs", tinfo.vmas);
	for (s = 0; s < nstrat; s++)
		print_strat(s, n);
	if (stat_of(S_MAPS_440, 0, n, VM_PSWPOUT).median <= 0) {
		printf("app-compaction: (a) reclaimed nothing: no swap? (the guest sets up zram)\n");
		ok = 0;
	}
	if (stat_of(S_MAPS_440, 0, n, VM_PGDEACTIVATE).median <= 0) {
		printf("app-compaction: (a) deactivated nothing\n");
		ok = 0;
	}
	for (s = 1; s < nstrat; s++)
		ok &= same_work(s, n);
	bench_header();
	for (s = 0; s < nstrat; s++)
		report_strat(s, n, size);
	if (nstrat < NR_STRAT)
		return ok;
	for (s = 1; s < NR_STRAT; s++) {
		report_ratio(s, 0, n, size);
		report_ratio(s, 1, n, size);
	}
	printf("work: (b) and (c) pass 1 within %d%% of (a): %s; app data intact after every run\n",
	       WORK_PCT, ok ? "yes" : "NO");
	if (!ok) {
		printf("app-compaction: FAILED: the strategies did not do the same work\n");
		return ok;
	}
	r1 = best_ratio(0, n, &b1);
	r2 = best_ratio(1, n, &b2);
	printf("best: pass 1 %s, pass 2 %s\n", strat_name[b1], strat_name[b2]);
	printf("app-compaction: %ld VMAs, pass 1 %.2fx, pass 2 %.2fx vs maps+process_madvise\n",
	       tinfo.vmas, r1, r2);
	return ok;
}

static int have_pidfd_madvise(void)
{
	errno = 0;
	return syscall(__NR_pidfd_madvise, -1, (ssize_t)1, NULL, NULL, NULL,
		       0UL) != -1 || errno != ENOSYS;
}

static double budget(void)
{
	const char *s = getenv("BENCH_BUDGET_S");

	return s && atof(s) > 0 ? atof(s) : DEF_BUDGET;
}

static void print_layout(size_t mib)
{
	printf("app-compaction: target of %zu MiB resident: %ld VMAs (%d libraries x 3 file VMAs, %d heaps of %zu KiB..%zu MiB, %ld PROT_NONE guards), %ld file pages, %ld heap pages\n",
	       mib, tinfo.vmas, NR_LIBS, NR_HEAPS, tinfo.heap_min >> 10,
	       tinfo.heap_max >> 20, tinfo.guards, tinfo.file_pages,
	       tinfo.heap_pages);
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 400;
	int want = bench_repeats(), nstrat = NR_STRAT, r, i, ok = 1;
	double start = bench_now(), lim = budget();
	static struct maps m;

	page = sysconf(_SC_PAGESIZE);
	if (!mib || maps_alloc(&m)) {
		fprintf(stderr, "usage: bench-app-compaction [MiB]\n");
		return 2;
	}
	if (!have_pidfd_madvise()) {
		printf("app-compaction: pidfd_madvise: ENOSYS: this kernel lacks the mm-remote series; running (a) alone\n");
		nstrat = 1;
	}
	for (r = 0; r < want; r++) {
		for (i = 0; i < nstrat; i++)
			if (run_one((r + i) % nstrat, r, mib << 20, &m)) {
				printf("app-compaction: %s failed\n",
				       strat_name[(r + i) % nstrat]);
				return 1;
			}
		if (!r)
			print_layout(mib);
		if (bench_now() - start > lim * (r + 1) / (r + 2))
			break;	/* one more round would pass the budget */
	}
	if (r < want)
		r++;
	printf("app-compaction: %d round(s) of %d strategies in %.0f s (budget %.0f s)\n",
	       r, nstrat, bench_now() - start, lim);
	ok = report(r, nstrat);
	if (nstrat < NR_STRAT)
		return 77;
	return ok ? 0 : 1;
}
