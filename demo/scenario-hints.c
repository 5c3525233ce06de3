// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-hints: an activity manager cools, then colds, a background app.
 *
 * A child, the "background app", fills N MiB (default 256) of private
 * anonymous memory with page-distinct data, uses it twice (so the pages
 * are on the active list) and then idles.  The manager, its parent, holds
 * a pidfd and, through process_madvise():
 *   1. MADV_COOL (5): every page goes to the inactive list, nothing to swap;
 *   2. the 2019 RFC's MADV_COLD (6, MADV_RECLAIM): the memory goes to
 *      (zram) swap now.
 * Before and after each step it prints the app's RSS and Swap and the
 * system's Active(anon)/Inactive(anon); at the end the app checks its data.
 *
 * Exit: 0 success, 1 failure, 77 "not supported" (kernel without the hints).
 * Usage: scenario-hints [MiB]
 * Build: gcc -static -O2 -Wall -isystem $obj/usr/include \
 *            -o scenario-hints scenario-hints.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

#include "mmr-demo.h"

static long pagesize;

struct app_info {
	uint64_t addr, len, sum;
};


/* The background app: fill, use twice, report, wait, verify. */
static void app(int cmd, int res, size_t len)
{
	struct app_info info;
	char c, ok;
	char *p;
	size_t i, j;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	for (i = 0; i < len; i += pagesize) {
		uint32_t x = (uint32_t)(i / pagesize) * 2654435761u + 7;

		for (j = 0; j < (size_t)pagesize; j += 4) {
			x = x * 1103515245u + 12345u;
			memcpy(p + i + j, &x, 4);
		}
	}
	/* "use" it: GUP with FOLL_TOUCH twice marks the pages active */
	madvise(p, len, MADV_POPULATE_READ);
	madvise(p, len, MADV_POPULATE_READ);
	madvise(p, len, MADV_POPULATE_READ);
	info.addr = (uintptr_t)p;
	info.len = len;
	info.sum = checksum(p, len);
	if (write(res, &info, sizeof(info)) != sizeof(info))
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		ok = checksum(p, len) == info.sum;
		if (write(res, &ok, 1) != 1)
			break;
	}
	_exit(0);
}



static long long vmstat(const char *key)
{
	char k[64];
	long long v, r = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", k, &v) == 2)
		if (!strcmp(k, key)) {
			r = v;
			break;
		}
	fclose(f);
	return r;
}

struct snap {
	long rss, swap, active, inactive;
	long long deact, pswpout;
};

static void snap(pid_t pid, struct snap *s)
{
	s->rss = status_kb(pid, "VmRSS");
	s->swap = status_kb(pid, "VmSwap");
	s->active = meminfo_kb("Active(anon)");
	s->inactive = meminfo_kb("Inactive(anon)");
	s->deact = vmstat("pgdeactivate");
	s->pswpout = vmstat("pswpout");
}

static void show(const char *when, struct snap *s)
{
	printf("  %-22s app RSS %7.1f MiB  Swap %7.1f MiB   system Active(anon) %7.1f MiB  Inactive(anon) %7.1f MiB\n",
	       when, s->rss / 1024.0, s->swap / 1024.0, s->active / 1024.0,
	       s->inactive / 1024.0);
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	size_t len = mib << 20;
	struct snap s0, s1, s2;
	struct app_info info;
	int cmd[2], res[2], pidfd, status, rc = 1;
	struct iovec iov;
	char c = 'v', ok = 0;
	long done;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesize = sysconf(_SC_PAGESIZE);
	if (!mib) {
		fprintf(stderr, "usage: %s [MiB]\n", argv[0]);
		return 2;
	}
	if (pipe(cmd) || pipe(res))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		close(cmd[1]);
		close(res[0]);
		app(cmd[0], res[1], len);
	}
	close(cmd[0]);
	close(res[1]);
	if (read(res[0], &info, sizeof(info)) != sizeof(info)) {
		printf("background app failed to start\n");
		goto out;
	}
	pidfd = syscall(__NR_pidfd_open, pid, 0);
	if (pidfd < 0) {
		printf("pidfd_open: %s: not supported\n", strerror(errno));
		rc = 77;
		goto out;
	}
	iov.iov_base = (void *)(uintptr_t)info.addr;
	iov.iov_len = info.len;
	printf("background app %d holds %zu MiB at %#llx\n", pid, mib,
	       (unsigned long long)info.addr);

	snap(pid, &s0);
	show("before", &s0);

	/* 1. cool: deactivate */
	done = syscall(__NR_process_madvise, pidfd, &iov, 1, MADV_COOL, 0);
	if (done < 0 && (errno == EINVAL || errno == ENOSYS)) {
		printf("process_madvise(MADV_COOL): %s: not supported\n",
		       strerror(errno));
		rc = 77;
		goto out;
	}
	if (done != (long)info.len) {
		printf("process_madvise(MADV_COOL) = %ld (%s)\n", done,
		       strerror(errno));
		goto out;
	}
	snap(pid, &s1);
	show("after MADV_COOL", &s1);
	printf("  %-22s pgdeactivate +%lld pages, pswpout +%lld pages\n", "",
	       s1.deact - s0.deact, s1.pswpout - s0.pswpout);

	/* 2. cold (RFC value 6): reclaim now */
	done = syscall(__NR_process_madvise, pidfd, &iov, 1, MADV_RECLAIM,
		       0);
	if (done != (long)info.len) {
		printf("process_madvise(6) = %ld (%s)\n", done,
		       strerror(errno));
		rc = done < 0 && errno == EINVAL ? 77 : 1;
		goto out;
	}
	snap(pid, &s2);
	show("after 6 (seed COLD)", &s2);
	printf("  %-22s pswpout +%lld pages (%.1f MiB)\n", "",
	       s2.pswpout - s1.pswpout,
	       (s2.pswpout - s1.pswpout) * (double)pagesize / (1 << 20));

	if (write(cmd[1], &c, 1) != 1 || read(res[0], &ok, 1) != 1)
		ok = 0;
	printf("app data after swap-in: %s\n", ok ? "identical" : "CORRUPTED");

	rc = 0;
	if (!ok)
		rc = 1;
	if (s1.swap > s0.swap + 1024 || s1.rss < s0.rss - 1024) {
		printf("FAIL: MADV_COOL must not reclaim\n");
		rc = 1;
	}
	if (s1.deact - s0.deact < (long long)(len / pagesize) * 9 / 10) {
		printf("FAIL: MADV_COOL deactivated too few pages\n");
		rc = 1;
	}
	if (s2.swap < (long)(len >> 10) * 9 / 10 ||
	    s2.rss > s0.rss - (long)(len >> 10) * 9 / 10) {
		printf("FAIL: value 6 did not move the app to swap\n");
		rc = 1;
	}
	printf("%s\n", rc ? "FAIL" : "PASS");
out:
	close(cmd[1]);
	close(res[0]);
	waitpid(pid, &status, 0);
	return rc;
}
