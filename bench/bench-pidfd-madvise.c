// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pidfd-madvise: the cost per range of hinting another process in
 * 4 KiB ranges, one boot, one target, the same data.
 *
 * A target child holds BIG MiB (default 1024) of page-distinct anonymous
 * memory.  The first N MiB (default 256) of it are hinted in 4 KiB ranges
 * with:
 *   pidfd_madvise, 1, 16, 256 and 1024 ranges per call;
 *   process_madvise, 1 range per call and 1024 iovecs per call;
 *   both with 1024 per call "scattered": the same ranges, ordered so that
 *   no range is adjacent to the one before it (the kernel may walk
 *   adjacent ranges of one advice together; this shows the cost of a
 *   range walked on its own);
 * for MADV_COOL (deactivate), for value 6 (MADV_RECLAIM, reclaim), for a
 * mixed vector (COOL and 6 interleaved range by range; process_madvise
 * can only do it one range per call), for MADV_COOL in 64 KiB ranges, and
 * for MADV_COOL over all BIG MiB in 4 KiB ranges.
 * Before each pass the target faults its memory back in and re-activates
 * it.  Reported: ns per range (median, min..max of $BENCH_REPEATS passes),
 * the vmstat counters moved per pass, and each case's ratio to
 * process_madvise with 1 range per call, measured in the same boot.
 *
 * Latency: a thread of the target maps, touches and unmaps a page in a
 * loop (it takes the mmap lock for writing) while the caller hints N MiB
 * with MADV_COOL in 4 KiB ranges; the median, 99th percentile and maximum
 * of one mmap+touch+munmap are reported per way of calling, from rounds
 * that take the ways in turn until each has at least 300 samples.
 *
 * Under TCG a pass of value 6 over 256 MiB is slow: give a smaller size.
 * Usage: bench-pidfd-madvise [MiB [BIG]]
 * Build: gcc -static -O2 -Wall -isystem $obj/usr/include -I bench \
 *            -o bench-pidfd-madvise bench/bench-pidfd-madvise.c
 * Exit: 0, 1 on error, 77 when the kernel lacks pidfd_madvise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define MAXVEC	1024
#define MADV_MIXED	(-1)	/* COOL and 6 interleaved */
#define LAT_MAX		(1 << 16)

static long pagesize;
static unsigned long base;
static int pidfd, cmd_fd, res_fd;

/* Shared with the target: the latency thread's switch and samples. */
struct lat_shared {
	volatile int on;
	volatile long n;
	double ns[LAT_MAX];
};
static struct lat_shared *lat;

static void *lat_thread(void *arg)
{
	(void)arg;
	for (;;) {
		double t0, t1;
		char *q;

		if (!lat->on) {
			usleep(1000);
			continue;
		}
		t0 = bench_now();
		q = mmap(NULL, pagesize, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q == MAP_FAILED)
			continue;
		*q = 1;
		munmap(q, pagesize);
		t1 = bench_now();
		if (lat->n < LAT_MAX)
			lat->ns[lat->n++] = (t1 - t0) * 1e9;
		usleep(200);
	}
	return NULL;
}

/* The target: fill, then on each command re-activate (fault in, touch). */
static void target(int cmd, int res, size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t addr = (uintptr_t)p, n;
	pthread_t th;
	size_t i, j;
	char c = 'a';

	if (p == MAP_FAILED)
		_exit(1);
	for (i = 0; i < len; i += pagesize) {
		uint32_t x = (uint32_t)(i / pagesize) * 2654435761u + 11;

		for (j = 0; j < (size_t)pagesize; j += 4) {
			x = x * 1103515245u + 12345u;
			memcpy(p + i + j, &x, 4);
		}
	}
	if (pthread_create(&th, NULL, lat_thread, NULL))
		_exit(1);
	if (write(res, &addr, sizeof(addr)) != sizeof(addr))
		_exit(1);
	while (read(cmd, &n, sizeof(n)) == sizeof(n)) {
		for (i = 0; i < 3; i++)
			madvise(p, n, MADV_POPULATE_READ);
		if (write(res, &c, 1) != 1)
			break;
	}
	_exit(0);
}

static void reactivate(size_t len)
{
	uint64_t n = len;
	char c;

	if (write(cmd_fd, &n, sizeof(n)) != sizeof(n) ||
	    read(res_fd, &c, 1) != 1) {
		fprintf(stderr, "target gone\n");
		exit(1);
	}
}

static struct iovec ranges[MAXVEC], results[MAXVEC];
static long out[MAXVEC];
static int behavior[MAXVEC];

static int advice_of(int advice, size_t i)
{
	if (advice != MADV_MIXED)
		return advice;
	return i & 1 ? MADV_RECLAIM : MADV_COOL;
}

/*
 * Element i of a call of n ranges: in order, or (scatter) the even ranges
 * of the call first and then the odd ones, so that no two consecutive
 * elements are adjacent and none can share a walk with the one before.
 */
static size_t slot(int scatter, int i, int n)
{
	if (!scatter || n & 1)
		return i;
	return i < n / 2 ? 2 * i : 2 * (i - n / 2) + 1;
}

/* One pass over nr ranges of rlen bytes; returns seconds, -1 on error */
static double pass(int pidfd_call, int per_call, int scatter, int advice,
		   size_t rlen, size_t nr)
{
	struct pr_madvise_param rp = { sizeof(rp), results };
	struct pr_madvise_param qp = { sizeof(qp), ranges };
	size_t done = 0;
	double t0, t1;
	int i, n;

	for (i = 0; i < per_call; i++) {
		ranges[i].iov_len = rlen;
		results[i].iov_base = &out[i];
		results[i].iov_len = sizeof(long);
	}
	t0 = bench_now();
	while (done < nr) {
		n = nr - done < (size_t)per_call ? nr - done : per_call;
		for (i = 0; i < n; i++) {
			size_t k = done + slot(scatter, i, n);

			ranges[i].iov_base = (void *)(base + k * rlen);
			behavior[i] = advice_of(advice, k);
		}
		if (pidfd_call) {
			if (syscall(__NR_pidfd_madvise, pidfd, n, behavior,
				    &rp, &qp, 0))
				return -1;
		} else {
			if (syscall(__NR_process_madvise, pidfd, ranges, n,
				    behavior[0], 0) != (long)(n * rlen))
				return -1;
		}
		done += n;
	}
	t1 = bench_now();
	return t1 - t0;
}

struct bcase {
	const char *name;
	int pidfd_call, per_call, scatter;
};

static const struct bcase cases[] = {
	{ "process_madvise 1 range/call", 0, 1, 0 },
	{ "process_madvise 1024 iovecs/call", 0, 1024, 0 },
	{ "pidfd_madvise 1 range/call", 1, 1, 0 },
	{ "pidfd_madvise 16 ranges/call", 1, 16, 0 },
	{ "pidfd_madvise 256 ranges/call", 1, 256, 0 },
	{ "pidfd_madvise 1024 ranges/call", 1, 1024, 0 },
	/* the same ranges, none adjacent to the one before it */
	{ "process_madvise 1024 iovecs/call, scattered", 0, 1024, 1 },
	{ "pidfd_madvise 1024 ranges/call, scattered", 1, 1024, 1 },
};
#define NCASES	(sizeof(cases) / sizeof(cases[0]))

/*
 * Cases 0..NCASES-1 that a run uses: a mixed vector skips 440 with many
 * iovecs (one advice per call), the 1 GiB run the middle vector lengths
 * and the scattered orders.
 */
static int case_used(int advice, int big, size_t c)
{
	if (advice == MADV_MIXED && (c == 1 || c == 6))
		return 0;
	if (big && (c == 3 || c == 4 || c >= 6))
		return 0;
	return 1;
}

static void run(const char *bench, int advice, const char *c1,
		const char *c2, size_t len, size_t rlen, int big)
{
	double ns[NCASES][BENCH_MAX_REPEATS], ratio[BENCH_MAX_REPEATS];
	long long moved[NCASES][2] = { { 0 } };
	int reps = bench_repeats(), r;
	size_t nr = len / rlen, c;
	struct bench_stat st;
	char d[128], size[48];

	snprintf(size, sizeof(size), "%zu MiB / %zu KiB", len >> 20,
		 rlen >> 10);
	for (r = 0; r < reps; r++) {
		for (c = 0; c < NCASES; c++) {
			/* rotate the order so no case always runs first */
			size_t k = (c + r) % NCASES;
			long long a0, b0 = 0;
			double s;

			if (!case_used(advice, big, k))
				continue;
			reactivate(len);
			a0 = bench_vmstat(c1);
			if (c2)
				b0 = bench_vmstat(c2);
			s = pass(cases[k].pidfd_call, cases[k].per_call,
				 cases[k].scatter, advice, rlen, nr);
			if (s < 0) {
				fprintf(stderr, "%s: %s failed: %s\n", bench,
					cases[k].name, strerror(errno));
				exit(1);
			}
			moved[k][0] += bench_vmstat(c1) - a0;
			if (c2)
				moved[k][1] += bench_vmstat(c2) - b0;
			ns[k][r] = s * 1e9 / nr;
		}
	}
	for (c = 0; c < NCASES; c++) {
		double copy[BENCH_MAX_REPEATS];

		if (!case_used(advice, big, c))
			continue;
		memcpy(copy, ns[c], sizeof(copy));
		st = bench_summarize(copy, reps);
		if (c2)
			snprintf(d, sizeof(d), "%s +%lld, %s +%lld", c1,
				 moved[c][0] / reps, c2, moved[c][1] / reps);
		else
			snprintf(d, sizeof(d), "%s +%lld", c1,
				 moved[c][0] / reps);
		bench_row(bench, cases[c].name, size, st, "ns/range", d);
	}
	for (c = 1; c < NCASES; c++) {
		char name[96];

		if (!case_used(advice, big, c))
			continue;
		for (r = 0; r < reps; r++)
			ratio[r] = ns[0][r] / ns[c][r];
		st = bench_summarize(ratio, reps);
		snprintf(name, sizeof(name), "speedup: %s", cases[c].name);
		bench_row(bench, name, size, st, "x",
			  "vs process_madvise 1 range/call");
	}
}

/*
 * The target's mmap+munmap latency during passes of each way of calling.
 * One round passes over the range once per way, in turn, the memory
 * re-activated before each pass; rounds go on until every way has
 * LAT_MIN_SAMPLES samples (a pass of many ranges per call is short and
 * gives few), at least $BENCH_REPEATS rounds and at most LAT_MAX_ROUNDS.
 */
#define LAT_WAYS	4
#define LAT_MIN_SAMPLES	300
#define LAT_MAX_ROUNDS	60

static void run_latency(size_t len)
{
	static const size_t lc[LAT_WAYS] = { 0, 1, 2, 5 };
	static double v[LAT_WAYS][LAT_MAX];
	int reps = bench_repeats(), r;
	size_t nr = len / pagesize, c;
	long n[LAT_WAYS] = { 0 }, least;
	char size[48], d[128];

	snprintf(size, sizeof(size), "%zu MiB / 4 KiB", len >> 20);
	for (r = 0; r < LAT_MAX_ROUNDS; r++) {
		for (c = 0, least = LAT_MAX; c < LAT_WAYS; c++)
			if (n[c] < least)
				least = n[c];
		if (r >= reps && least >= LAT_MIN_SAMPLES)
			break;
		for (c = 0; c < LAT_WAYS; c++) {
			const struct bcase *bc = &cases[lc[c]];
			long k;

			reactivate(len);
			lat->n = 0;
			lat->on = 1;
			if (pass(bc->pidfd_call, bc->per_call, bc->scatter,
				 MADV_COOL, pagesize, nr) < 0) {
				perror("latency pass");
				exit(1);
			}
			lat->on = 0;
			usleep(5000);
			for (k = 0; k < lat->n && n[c] < LAT_MAX; k++)
				v[c][n[c]++] = lat->ns[k];
		}
	}
	for (c = 0; c < LAT_WAYS; c++) {
		struct bench_stat st;
		double mean;
		long i;

		if (!n[c])
			continue;
		for (i = 0, mean = 0; i < n[c]; i++)
			mean += v[c][i] / n[c];
		st = bench_summarize(v[c], n[c]);
		i = (long)(n[c] * 0.99);
		if (i >= n[c])
			i = n[c] - 1;
		snprintf(d, sizeof(d),
			 "mean %.0f us, p99 %.0f us, %ld samples, %d rounds",
			 mean / 1000, v[c][i] / 1000, n[c], r);
		st.median /= 1000;
		st.min /= 1000;
		st.max /= 1000;
		bench_row("pidfd-madvise latency mmap+munmap", cases[lc[c]].name,
			  size, st, "us", d);
	}
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	size_t big = argc > 2 ? strtoul(argv[2], NULL, 0) : 1024;
	int cmd[2], res[2];
	uint64_t addr;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesize = sysconf(_SC_PAGESIZE);
	if (big < mib)
		big = mib;
	if (!mib || pipe(cmd) || pipe(res))
		return 1;
	errno = 0;
	if (syscall(__NR_pidfd_madvise, -1, 1, NULL, NULL, NULL, 0) == -1 &&
	    errno == ENOSYS) {
		printf("bench-pidfd-madvise: pidfd_madvise not supported\n");
		return 77;
	}
	lat = mmap(NULL, sizeof(*lat), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (lat == MAP_FAILED)
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		close(cmd[1]);
		close(res[0]);
		target(cmd[0], res[1], big << 20);
	}
	close(cmd[0]);
	close(res[1]);
	cmd_fd = cmd[1];
	res_fd = res[0];
	if (read(res_fd, &addr, sizeof(addr)) != sizeof(addr))
		return 1;
	base = addr;
	pidfd = syscall(__NR_pidfd_open, pid, 0);
	if (pidfd < 0)
		return 1;

	bench_header();
	run("pidfd-madvise COOL", MADV_COOL, "pgdeactivate", NULL,
	    mib << 20, pagesize, 0);
	run("pidfd-madvise 6 (reclaim)", MADV_RECLAIM, "pswpout", NULL,
	    mib << 20, pagesize, 0);
	run("pidfd-madvise mixed COOL/6", MADV_MIXED, "pgdeactivate",
	    "pswpout", mib << 20, pagesize, 0);
	run("pidfd-madvise COOL 64K", MADV_COOL, "pgdeactivate", NULL,
	    mib << 20, 16 * pagesize, 0);
	if (big > mib)
		run("pidfd-madvise COOL big", MADV_COOL, "pgdeactivate", NULL,
		    big << 20, pagesize, 1);
	run_latency(mib << 20);

	close(cmd_fd);
	waitpid(pid, NULL, 0);
	return 0;
}
