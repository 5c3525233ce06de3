// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-activity-manager: one pidfd_madvise() call sends a background
 * app to the cache.
 *
 * The "app" (a child) holds anonymous heaps and file mappings (a memfd
 * mapped shared and privately, standing in for its code and assets), all
 * with page-distinct data that it has used recently.  The manager reads
 * the app's /proc/<pid>/maps and, in ONE pidfd_madvise() call, gives every
 * range its hint, the 2019 RFC's Android policy for zram devices:
 *   anonymous ranges: 6 (MADV_RECLAIM) | MADV_ANONYMOUS_FILTER,
 *                     reclaim now, swap is cheap;
 *   file ranges:      MADV_COOL | MADV_FILE_FILTER, only deactivate,
 *                     refaults cost storage I/O.
 * It prints the result of each range (pages reclaimed or deactivated, or
 * -errno) next to the app's RSS and Swap before and after, then has the
 * app check its data.
 *
 * Exit: 0 success, 1 failure, 77 "not supported" (no pidfd_madvise).
 * Usage: scenario-activity-manager [MiB per heap, default 32]
 * Build: gcc -static -O2 -Wall -isystem $obj/usr/include \
 *            -o scenario-activity-manager scenario-activity-manager.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/mman.h>
#include <linux/pidfd_madvise.h>

#include "mmr-demo.h"

#define MAX_RANGES	256

static long pagesize;

static void fill(char *p, size_t len, unsigned int seed)
{
	size_t i, j;

	for (i = 0; i < len; i += pagesize) {
		uint32_t x = (uint32_t)(i / pagesize + seed) * 2654435761u;

		for (j = 0; j < (size_t)pagesize; j += 4) {
			x = x * 1103515245u + 12345u;
			memcpy(p + i + j, &x, 4);
		}
	}
}


/* The background app: three heaps, a shared and a private file mapping. */
static void app(int cmd, int res, size_t len)
{
	char *heap[3], *shared, *private, c, ok;
	uint64_t sum;
	int i, fd;

	for (i = 0; i < 3; i++) {
		heap[i] = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (heap[i] == MAP_FAILED)
			_exit(1);
		fill(heap[i], len, i * 100000);
	}
	fd = memfd_create("app-assets", 0);
	if (fd < 0 || ftruncate(fd, 2 * len))
		_exit(1);
	shared = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	private = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, len);
	if (shared == MAP_FAILED || private == MAP_FAILED)
		_exit(1);
	fill(shared, len, 300000);
	if (pwrite(fd, heap[0], len, len) != (ssize_t)len)
		_exit(1);
	/* recently used: GUP touches twice, the pages go active */
	for (i = 0; i < 3; i++) {
		int k;

		for (k = 0; k < 3; k++)
			madvise(heap[k], len, MADV_POPULATE_READ);
		madvise(shared, len, MADV_POPULATE_READ);
		madvise(private, len, MADV_POPULATE_READ);
	}
	sum = checksum(heap[0], len) ^ checksum(heap[1], len) * 3 ^
	      checksum(heap[2], len) * 5 ^ checksum(shared, len) * 7 ^
	      checksum(private, len) * 11;
	c = 1;
	if (write(res, &c, 1) != 1)
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		ok = sum == (checksum(heap[0], len) ^
			     checksum(heap[1], len) * 3 ^
			     checksum(heap[2], len) * 5 ^
			     checksum(shared, len) * 7 ^
			     checksum(private, len) * 11);
		if (write(res, &ok, 1) != 1)
			break;
	}
	_exit(0);
}


static void show(const char *when, pid_t pid)
{
	printf("%-8s app RssAnon %7.1f MiB  RssFile %7.1f MiB  RssShmem %7.1f MiB  Swap %7.1f MiB\n",
	       when, status_kb(pid, "RssAnon") / 1024.0,
	       status_kb(pid, "RssFile") / 1024.0,
	       status_kb(pid, "RssShmem") / 1024.0,
	       status_kb(pid, "VmSwap") / 1024.0);
}

struct range {
	unsigned long start, end;
	char name[80];
	int file;
};

/* Every mapping of the app, but the kernel's special ones. */
static int read_maps(pid_t pid, struct range *r, int max)
{
	char path[64], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		unsigned long s, e, ino;
		char perm[8], name[256] = "";
		int fields;

		fields = sscanf(line, "%lx-%lx %7s %*s %*s %lu %255[^\n]",
				&s, &e, perm, &ino, name);
		if (fields < 4)
			continue;
		if (name[0] == '[' && strcmp(name, "[heap]") &&
		    strcmp(name, "[stack]"))
			continue;	/* vdso, vvar, vsyscall */
		r[n].start = s;
		r[n].end = e;
		r[n].file = ino != 0;
		snprintf(r[n].name, sizeof(r[n].name), "%s",
			 name[0] ? name : "[anon]");
		n++;
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 32;
	struct iovec ranges[MAX_RANGES], results[MAX_RANGES];
	struct pr_madvise_param rp, qp;
	int behavior[MAX_RANGES], cmd[2], res[2], pidfd, n, i, rc = 1;
	long out[MAX_RANGES], anon_done = 0, file_done = 0;
	struct range r[MAX_RANGES];
	char c = 'v', ok = 0;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesize = sysconf(_SC_PAGESIZE);
	if (!mib || pipe(cmd) || pipe(res))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		close(cmd[1]);
		close(res[0]);
		app(cmd[0], res[1], mib << 20);
	}
	close(cmd[0]);
	close(res[1]);
	if (read(res[0], &c, 1) != 1) {
		printf("background app failed to start\n");
		goto out;
	}
	pidfd = syscall(__NR_pidfd_open, pid, 0);
	n = read_maps(pid, r, MAX_RANGES);
	if (pidfd < 0 || n <= 0) {
		printf("cannot open the app: %s\n", strerror(errno));
		goto out;
	}

	for (i = 0; i < n; i++) {
		behavior[i] = r[i].file ?
			(int)(MADV_COOL | MADV_FILE_FILTER) :
			(int)(MADV_RECLAIM | MADV_ANONYMOUS_FILTER);
		ranges[i].iov_base = (void *)r[i].start;
		ranges[i].iov_len = r[i].end - r[i].start;
		results[i].iov_base = &out[i];
		results[i].iov_len = sizeof(long);
	}
	rp.size = sizeof(rp);
	rp.vec = results;
	qp.size = sizeof(qp);
	qp.vec = ranges;

	printf("background app %d: %d mappings, heaps of %zu MiB\n", pid, n,
	       mib);
	show("before", pid);
	if (syscall(__NR_pidfd_madvise, pidfd, n, behavior, &rp, &qp, 0)) {
		if (errno == ENOSYS) {
			printf("pidfd_madvise: not supported\n");
			rc = 77;
		} else {
			printf("pidfd_madvise: %s\n", strerror(errno));
		}
		goto out;
	}
	show("after", pid);

	printf("\n%-25s %9s  %-30s %s\n", "range", "KiB", "hint", "result");
	for (i = 0; i < n; i++) {
		char what[40];

		if (out[i] >= 0)
			snprintf(what, sizeof(what), "%ld pages %s", out[i],
				 r[i].file ? "deactivated" : "reclaimed");
		else
			snprintf(what, sizeof(what), "%s", strerror(-out[i]));
		printf("%012lx-%012lx %9lu  %-30s %s  %s\n", r[i].start,
		       r[i].end, (r[i].end - r[i].start) >> 10,
		       r[i].file ? "MADV_COOL|FILE_FILTER" :
				   "6 (seed COLD)|ANON_FILTER",
		       what, r[i].name);
		if (out[i] > 0 && r[i].file)
			file_done += out[i];
		else if (out[i] > 0)
			anon_done += out[i];
	}
	printf("\nreclaimed %.1f MiB of anonymous memory, deactivated %.1f MiB of file pages\n",
	       anon_done * (double)pagesize / (1 << 20),
	       file_done * (double)pagesize / (1 << 20));

	c = 'v';
	if (write(cmd[1], &c, 1) != 1 || read(res[0], &ok, 1) != 1)
		ok = 0;
	printf("app data after the hints: %s\n", ok ? "identical" : "CORRUPTED");
	rc = 0;
	if (!ok)
		rc = 1;
	/* three heaps reclaimed, at least two file mappings deactivated */
	if (anon_done < (long)(3 * (mib << 20) / pagesize) * 9 / 10 ||
	    file_done < (long)(2 * (mib << 20) / pagesize) * 9 / 10) {
		printf("FAIL: too little was reclaimed or deactivated\n");
		rc = 1;
	}
	printf("%s\n", rc ? "FAIL" : "PASS");
out:
	close(cmd[1]);
	close(res[0]);
	waitpid(pid, NULL, 0);
	return rc;
}
