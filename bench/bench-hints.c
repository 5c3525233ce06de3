// SPDX-License-Identifier: GPL-2.0
/*
 * bench-hints: the 2019 RFC's hint values against their upstream twins, in
 * one boot, on the same data.
 *
 *   value 6 (MADV_RECLAIM) vs MADV_PAGEOUT (21): MB/s reclaimed
 *   MADV_COOL (5)               vs MADV_COLD (20):    pages/s deactivated
 *
 * Both pairs share one kernel path, so the ratio rows should read 1.0
 * within noise; a ratio far from it means the alias costs something.  The
 * region (N MiB, default 256, page-distinct data) is swapped back in and
 * re-activated before every timed call, and the two cases of a pair
 * alternate which one runs first.  The amount acted on is taken from
 * /proc/vmstat (pswpout, pgdeactivate), not assumed.
 *
 * Usage: bench-hints [MiB]
 * Build: gcc -static -O2 -Wall -isystem $obj/usr/include -I bench \
 *            -o bench-hints bench/bench-hints.c
 * Exit: 0, 1 on error, 77 when the kernel lacks MADV_COOL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

static char *buf;
static size_t len;
static long pagesize;

static void fill(void)
{
	size_t i, j;

	for (i = 0; i < len; i += pagesize) {
		uint32_t x = (uint32_t)(i / pagesize) * 2654435761u + 3;

		for (j = 0; j < (size_t)pagesize; j += 4) {
			x = x * 1103515245u + 12345u;
			memcpy(buf + i + j, &x, 4);
		}
	}
}

/* Fault everything back in and make it active (GUP touch, twice). */
static void activate(void)
{
	int i;

	for (i = 0; i < 3; i++)
		madvise(buf, len, MADV_POPULATE_READ);
}

struct result {
	double rate[BENCH_MAX_REPEATS];
	long long events;
};

/* One timed call; returns the rate of @counter's growth in @unit_pages. */
static double timed(int advice, const char *counter, double per_unit,
		    long long *events)
{
	long long c0, c1;
	double t0, t1;

	activate();
	c0 = bench_vmstat(counter);
	t0 = bench_now();
	if (madvise(buf, len, advice)) {
		perror("madvise");
		exit(1);
	}
	t1 = bench_now();
	c1 = bench_vmstat(counter);
	*events += c1 - c0;
	return (c1 - c0) * per_unit / (t1 - t0);
}

static void pair(const char *name, int a, const char *an, int b,
		 const char *bn, const char *counter, double per_unit,
		 const char *unit, const char *size)
{
	struct result ra = { { 0 } }, rb = { { 0 } };
	double ratio[BENCH_MAX_REPEATS];
	struct bench_stat sa, sb, sr;
	int n = bench_repeats(), i;
	char d[128];

	for (i = 0; i < n; i++) {
		if (i & 1) {
			rb.rate[i] = timed(b, counter, per_unit, &rb.events);
			ra.rate[i] = timed(a, counter, per_unit, &ra.events);
		} else {
			ra.rate[i] = timed(a, counter, per_unit, &ra.events);
			rb.rate[i] = timed(b, counter, per_unit, &rb.events);
		}
		ratio[i] = rb.rate[i] ? ra.rate[i] / rb.rate[i] : 0;
	}
	sa = bench_summarize(ra.rate, n);
	sb = bench_summarize(rb.rate, n);
	sr = bench_summarize(ratio, n);
	snprintf(d, sizeof(d), "%s +%lld", counter, ra.events / n);
	bench_row(name, an, size, sa, unit, d);
	snprintf(d, sizeof(d), "%s +%lld", counter, rb.events / n);
	bench_row(name, bn, size, sb, unit, d);
	snprintf(d, sizeof(d), "%s / %s", an, bn);
	bench_row(name, "ratio", size, sr, "x", d);
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	struct timespec res;
	char size[32];

	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesize = sysconf(_SC_PAGESIZE);
	len = mib << 20;
	if (!len)
		return 1;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	if (madvise(buf, pagesize, MADV_COOL) && errno == EINVAL) {
		printf("bench-hints: MADV_COOL not supported\n");
		return 77;
	}
	fill();
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("clock resolution %.3f ms: keep each call well above it\n",
	       res.tv_sec * 1e3 + res.tv_nsec / 1e6);
	snprintf(size, sizeof(size), "%zu MiB", mib);
	bench_header();
	pair("hints-reclaim", MADV_RECLAIM, "6 (seed COLD)",
	     MADV_PAGEOUT, "MADV_PAGEOUT", "pswpout",
	     (double)pagesize / 1e6, "MB/s", size);
	pair("hints-deactivate", MADV_COOL, "MADV_COOL", MADV_COLD,
	     "MADV_COLD", "pgdeactivate", 1.0, "pages/s", size);
	return 0;
}
