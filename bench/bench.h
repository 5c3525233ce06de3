/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - the measuring method every mm-remote benchmark shares.
 *
 * Each benchmark runs in one boot of the base guest, repeats every case
 * BENCH_REPEATS times (or the count in $BENCH_REPEATS), and reports the
 * median with the min..max spread.  Ratios are taken between cases measured
 * in the same boot.  /proc/vmstat counter deltas are printed beside times.
 * Rows are printed as
 *   | bench | case | size | median | min..max | unit | vmstat deltas |
 * so scripts/mmr-bench can gather them into one table.
 */
#ifndef MMR_BENCH_H
#define MMR_BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
/*
 * Syscall numbers, the MADV_* and PVMMAP_* values and struct
 * pr_madvise_param come from the uapi headers the kernel under test
 * installed (-isystem $obj/usr/include): copies would go stale.
 */
#include <linux/mman.h>
#include <linux/pidfd_madvise.h>

/* process_vm_mmap(): the address of the copy, or -1 with errno set. */
static inline long bench_pvmmap(pid_t pid, void *src, unsigned long len,
				void *dst, unsigned long flags)
{
	return syscall(__NR_process_vm_mmap, pid, (unsigned long)src, len,
		       (unsigned long)dst, flags);
}

#define BENCH_MAX_REPEATS 64

static inline int bench_repeats(void)
{
	const char *s = getenv("BENCH_REPEATS");
	int n = s ? atoi(s) : 5;

	if (n < 1)
		n = 1;
	if (n > BENCH_MAX_REPEATS)
		n = BENCH_MAX_REPEATS;
	return n;
}

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct bench_stat {
	double median, min, max;
};

static inline struct bench_stat bench_summarize(double *v, int n)
{
	struct bench_stat s;

	qsort(v, n, sizeof(*v), bench_cmp);
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

/* Read one /proc/vmstat counter; -1 when absent. */
static inline long long bench_vmstat(const char *name)
{
	char key[64];
	long long val, ret = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* Read one /proc/meminfo field, in kB; -1 when absent. */
static inline long long bench_meminfo_kb(const char *key)
{
	char k[64];
	long long v, ret = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld%*[^\n]", k, &v) == 2) {
		if (!strncmp(k, key, strlen(key)) && k[strlen(key)] == ':') {
			ret = v;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* The number at the start of file @path; -1 when unreadable. */
static inline long long bench_read_ll(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtoll(buf, NULL, 10);
}

/* Write @s to file @path in one write(); 0 or -errno. */
static inline int bench_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -errno;
	close(fd);
	return ret;
}

/* /proc/<pid>/ksm_merging_pages; -1 when unreadable. */
static inline long long bench_ksm_merging(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/ksm_merging_pages", pid);
	return bench_read_ll(path);
}

static inline void bench_header(void)
{
	printf("| bench | case | size | median | min..max | unit | vmstat deltas (per run) |\n");
	printf("|---|---|---|---|---|---|---|\n");
}

static inline void bench_row(const char *bench, const char *cas,
			     const char *size, struct bench_stat s,
			     const char *unit, const char *deltas)
{
	printf("| %s | %s | %s | %.3f | %.3f..%.3f | %s | %s |\n", bench, cas,
	       size, s.median, s.min, s.max, unit, deltas ? deltas : "");
	fflush(stdout);
}

#endif
