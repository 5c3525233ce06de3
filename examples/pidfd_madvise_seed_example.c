// SPDX-License-Identifier: GPL-2.0
/*
 * The example program of the 2019 RFC "mm: extend process_madvise syscall
 * to support vector arrary" (6/7), written anew for pidfd_madvise().
 *
 * Two private anonymous regions are populated, then a child is forked and
 * the parent unmaps its own copies, so that the child's pages are its
 * alone.  The parent then gives the child, in one call, the RFC's
 * MADV_COLD (reclaim, value 6) for the first region and MADV_COOL
 * (deactivate, value 5) for the second, printing the pswpout and
 * pgdeactivate counters around the call and the per-range results.
 *
 * Adapted, as allowed: the call is pidfd_madvise, not process_madvise;
 * the pidfd comes from pidfd_open(), since /proc/<pid> directory
 * descriptors are not pidfds in today's kernels; value 6 is spelled
 * MADV_RECLAIM, as MADV_COLD now means 20.
 *
 * Build: gcc -static -O2 -Wall -isystem $obj/usr/include \
 *            -o pidfd_madvise_seed_example pidfd_madvise_seed_example.c
 */
#define _GNU_SOURCE
#include <signal.h>
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

#define ALLOC_SIZE	(32UL << 20)

static void show_vmstat(const char *when)
{
	char key[64];
	long long val;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return;
	printf("%s:", when);
	while (fscanf(f, "%63s %lld", key, &val) == 2)
		if (!strcmp(key, "pswpout") || strstr(key, "deactivate"))
			printf(" %s %lld", key, val);
	printf("\n");
	fclose(f);
}

int main(void)
{
	struct pr_madvise_param results, ranges;
	struct iovec result_vec[2], range_vec[2];
	int hints[2], pidfd, status;
	long ret[2] = { 0, 0 };
	int ok = 1;
	void *addr[2];
	size_t i;
	pid_t pid;

	for (i = 0; i < 2; i++) {
		addr[i] = mmap(NULL, ALLOC_SIZE, PROT_READ | PROT_WRITE,
			       MAP_POPULATE | MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (addr[i] == MAP_FAILED)
			return 1;
		/* distinct contents: zram keeps same-filled pages apart */
		for (size_t off = 0; off < ALLOC_SIZE; off += 4096)
			*(unsigned long *)((char *)addr[i] + off) = off ^ i;
		/*
		 * New anonymous pages start on the inactive list: "use" them
		 * (GUP with FOLL_TOUCH, twice, activates them), so that
		 * MADV_COOL has active pages to deactivate.
		 */
		madvise(addr[i], ALLOC_SIZE, MADV_POPULATE_READ);
		madvise(addr[i], ALLOC_SIZE, MADV_POPULATE_READ);
	}

	hints[0] = MADV_RECLAIM;
	range_vec[0].iov_base = addr[0];
	range_vec[0].iov_len = ALLOC_SIZE;
	result_vec[0].iov_base = &ret[0];
	result_vec[0].iov_len = sizeof(long);

	hints[1] = MADV_COOL;
	range_vec[1].iov_base = addr[1];
	range_vec[1].iov_len = ALLOC_SIZE;
	result_vec[1].iov_base = &ret[1];
	result_vec[1].iov_len = sizeof(long);

	results.size = sizeof(struct pr_madvise_param);
	results.vec = result_vec;
	ranges.size = sizeof(struct pr_madvise_param);
	ranges.vec = range_vec;

	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		sleep(10);
		_exit(0);
	}

	pidfd = syscall(__NR_pidfd_open, pid, 0);
	if (pidfd < 0) {
		perror("pidfd_open");
		return 1;
	}
	/* munmap to make the pages private to the child */
	munmap(addr[0], ALLOC_SIZE);
	munmap(addr[1], ALLOC_SIZE);

	show_vmstat("before");
	if (syscall(__NR_pidfd_madvise, pidfd, 2, hints, &results, &ranges, 0)) {
		perror("pidfd_madvise");
		ok = 0;
	}
	show_vmstat("after ");
	printf("results: range 0 (reclaim) %ld pages, range 1 (deactivate) %ld pages\n",
	       ret[0], ret[1]);
	/* Each range acted on pages: anything else means the call did nothing. */
	if (ret[0] <= 0 || ret[1] <= 0)
		ok = 0;

	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	return ok ? 0 : 1;
}
