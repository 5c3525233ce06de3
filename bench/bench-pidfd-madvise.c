// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pidfd-madvise: the cost per range of hinting another process in
 * 4 KiB ranges, one boot, one target, the same data.
 *
 * A target child holds N MiB (default 256) of page-distinct anonymous
 * memory.  The whole of it is hinted in 4 KiB ranges with:
 *   pidfd_madvise, 1, 16, 256 and 1024 ranges per call;
 *   process_madvise, 1 range per call and 1024 iovecs per call;
 * for MADV_COOL (deactivate) and for value 6 (MADV_RECLAIM, reclaim).
 * Before each pass the target faults its memory back in and re-activates
 * it.  Reported: ns per range (median, min..max of $BENCH_REPEATS passes),
 * the vmstat counter moved per pass, and each case's ratio to
 * process_madvise with 1 range per call, measured in the same boot.
 *
 * Under TCG a pass of value 6 over 256 MiB is slow: give a smaller size.
 * Usage: bench-pidfd-madvise [MiB]
 * Build: gcc -static -O2 -Wall -I bench -o bench-pidfd-madvise \
 *            bench/bench-pidfd-madvise.c
 * Exit: 0, 1 on error, 77 when the kernel lacks pidfd_madvise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#ifndef __NR_pidfd_open
#define __NR_pidfd_open		434
#endif
#ifndef __NR_process_madvise
#define __NR_process_madvise	440
#endif
#ifndef __NR_pidfd_madvise
#define __NR_pidfd_madvise	1000
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#endif
#ifndef MADV_COOL
#define MADV_COOL		5
#endif
#ifndef MADV_RECLAIM
#define MADV_RECLAIM	6
#endif

struct pr_madvise_param_bench {		/* struct pr_madvise_param */
	int size;
	const struct iovec *vec;
};

#define MAXVEC	1024

static long pagesize;
static unsigned long base;
static size_t nranges;
static int pidfd, cmd_fd, res_fd;

/* The target: fill, then on each byte re-activate (fault in, touch). */
static void target(int cmd, int res, size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t addr = (uintptr_t)p;
	size_t i, j;
	char c;

	if (p == MAP_FAILED)
		_exit(1);
	for (i = 0; i < len; i += pagesize) {
		uint32_t x = (uint32_t)(i / pagesize) * 2654435761u + 11;

		for (j = 0; j < (size_t)pagesize; j += 4) {
			x = x * 1103515245u + 12345u;
			memcpy(p + i + j, &x, 4);
		}
	}
	if (write(res, &addr, sizeof(addr)) != sizeof(addr))
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		for (i = 0; i < 3; i++)
			madvise(p, len, MADV_POPULATE_READ);
		if (write(res, &c, 1) != 1)
			break;
	}
	_exit(0);
}

static void reactivate(void)
{
	char c = 'a';

	if (write(cmd_fd, &c, 1) != 1 || read(res_fd, &c, 1) != 1) {
		fprintf(stderr, "target gone\n");
		exit(1);
	}
}

static struct iovec ranges[MAXVEC], results[MAXVEC];
static long out[MAXVEC];
static int behavior[MAXVEC];

/* One pass over the target in 4 KiB ranges; returns seconds, -1 on error */
static double pass(int pidfd_call, int per_call, int advice)
{
	struct pr_madvise_param_bench rp = { sizeof(rp), results };
	struct pr_madvise_param_bench qp = { sizeof(qp), ranges };
	size_t done = 0;
	double t0, t1;
	int i, n;

	for (i = 0; i < per_call; i++) {
		behavior[i] = advice;
		ranges[i].iov_len = pagesize;
		results[i].iov_base = &out[i];
		results[i].iov_len = sizeof(long);
	}
	t0 = bench_now();
	while (done < nranges) {
		n = nranges - done < (size_t)per_call ? nranges - done :
							per_call;
		for (i = 0; i < n; i++)
			ranges[i].iov_base = (void *)(base +
						      (done + i) * pagesize);
		if (pidfd_call) {
			if (syscall(__NR_pidfd_madvise, pidfd, n, behavior,
				    &rp, &qp, 0))
				return -1;
		} else {
			if (syscall(__NR_process_madvise, pidfd, ranges, n,
				    advice, 0) != (long)n * pagesize)
				return -1;
		}
		done += n;
	}
	t1 = bench_now();
	return t1 - t0;
}

struct bcase {
	const char *name;
	int pidfd_call, per_call;
};

static const struct bcase cases[] = {
	{ "process_madvise 1 range/call", 0, 1 },
	{ "process_madvise 1024 iovecs/call", 0, 1024 },
	{ "pidfd_madvise 1 range/call", 1, 1 },
	{ "pidfd_madvise 16 ranges/call", 1, 16 },
	{ "pidfd_madvise 256 ranges/call", 1, 256 },
	{ "pidfd_madvise 1024 ranges/call", 1, 1024 },
};
#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static void run(const char *bench, int advice, const char *counter,
		const char *size)
{
	double ns[NCASES][BENCH_MAX_REPEATS], ratio[BENCH_MAX_REPEATS];
	long long moved[NCASES] = { 0 };
	int reps = bench_repeats(), r;
	struct bench_stat st;
	char d[128];
	size_t c;

	for (r = 0; r < reps; r++) {
		for (c = 0; c < NCASES; c++) {
			/* rotate the order so no case always runs first */
			size_t k = (c + r) % NCASES;
			long long c0;
			double s;

			reactivate();
			c0 = bench_vmstat(counter);
			s = pass(cases[k].pidfd_call, cases[k].per_call,
				 advice);
			if (s < 0) {
				fprintf(stderr, "%s: %s failed: %s\n", bench,
					cases[k].name, strerror(errno));
				exit(1);
			}
			moved[k] += bench_vmstat(counter) - c0;
			ns[k][r] = s * 1e9 / nranges;
		}
	}
	for (c = 0; c < NCASES; c++) {
		double copy[BENCH_MAX_REPEATS];

		memcpy(copy, ns[c], sizeof(copy));
		st = bench_summarize(copy, reps);
		snprintf(d, sizeof(d), "%s +%lld", counter, moved[c] / reps);
		bench_row(bench, cases[c].name, size, st, "ns/range", d);
	}
	for (c = 1; c < NCASES; c++) {
		char name[96];

		for (r = 0; r < reps; r++)
			ratio[r] = ns[0][r] / ns[c][r];
		st = bench_summarize(ratio, reps);
		snprintf(name, sizeof(name), "speedup: %s", cases[c].name);
		bench_row(bench, name, size, st, "x",
			  "vs process_madvise 1 range/call");
	}
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	int cmd[2], res[2];
	char size[48];
	uint64_t addr;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesize = sysconf(_SC_PAGESIZE);
	if (!mib || pipe(cmd) || pipe(res))
		return 1;
	errno = 0;
	if (syscall(__NR_pidfd_madvise, -1, 1, NULL, NULL, NULL, 0) == -1 &&
	    errno == ENOSYS) {
		printf("bench-pidfd-madvise: pidfd_madvise not supported\n");
		return 77;
	}
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		close(cmd[1]);
		close(res[0]);
		target(cmd[0], res[1], mib << 20);
	}
	close(cmd[0]);
	close(res[1]);
	cmd_fd = cmd[1];
	res_fd = res[0];
	if (read(res_fd, &addr, sizeof(addr)) != sizeof(addr))
		return 1;
	base = addr;
	nranges = (mib << 20) / pagesize;
	pidfd = syscall(__NR_pidfd_open, pid, 0);
	if (pidfd < 0)
		return 1;

	snprintf(size, sizeof(size), "%zu MiB / 4 KiB", mib);
	bench_header();
	run("pidfd-madvise COOL", MADV_COOL, "pgdeactivate", size);
	run("pidfd-madvise 6 (reclaim)", MADV_RECLAIM, "pswpout", size);

	close(cmd_fd);
	waitpid(pid, NULL, 0);
	return 0;
}
