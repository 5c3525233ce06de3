// SPDX-License-Identifier: GPL-2.0
/*
 * mmr-probe: tell, by probing the running kernel, which mm-remote
 * interfaces it has.  Each probe uses an argument that the new interface
 * rejects with a known errno and that an unpatched 6.12 rejects otherwise.
 * Prints "missing: NAME" for each absent interface and exits 1 unless all
 * eight are there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/mman.h>

static const char *missing[8];
static int nmissing;

static int row(const char *what, int have, const char *how)
{
	printf("  %-40s %-4s %s\n", what, have ? "yes" : "no", how);
	if (!have && nmissing < 8)
		missing[nmissing++] = what;
	return have;
}

static const char *err(long r)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "(%s)", r < 0 ? strerror(errno) : "ok");
	return buf;
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE), r;
	struct utsname u;
	struct iovec iov;
	char pm_name[40], pv_name[40];
	char *buf;
	int pidfd, n = 0;
	pid_t child;

	uname(&u);
	printf("mm-remote interface probe\n  kernel: %s %s\n", u.release, u.version);
	buf = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	memset(buf, 1, 4 * pg);

	r = madvise(buf, 4 * pg, MADV_COOL);
	n += row("madvise(MADV_COOL = 5)", r == 0, err(r));
	r = madvise(buf, 4 * pg, MADV_RECLAIM);
	n += row("madvise(6, the seed's MADV_COLD)", r == 0, err(r));
	r = madvise(buf, 4 * pg, (int)(MADV_COLD | MADV_ANONYMOUS_FILTER));
	n += row("MADV_ANONYMOUS_FILTER / MADV_FILE_FILTER", r == 0, err(r));

	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	pidfd = syscall(__NR_pidfd_open, child, 0);
	iov.iov_base = buf;
	iov.iov_len = 4 * pg;
	/* The child shares buf's address: it was mapped before fork(). */
	r = syscall(__NR_process_madvise, pidfd, &iov, 1, MADV_COOL, 0);
	n += row("process_madvise(440) with MADV_COOL", r >= 0, err(r));
	r = syscall(__NR_process_madvise, pidfd, &iov, 1, MADV_DONTNEED, 0);
	n += row("process_madvise(440) with any advice", r >= 0, err(r));
	/* Labelled with the numbers of the headers the probe was built with. */
	snprintf(pm_name, sizeof(pm_name), "pidfd_madvise (%ld)",
		 (long)__NR_pidfd_madvise);
	snprintf(pv_name, sizeof(pv_name), "process_vm_mmap (%ld)",
		 (long)__NR_process_vm_mmap);
	/* flags must be 0: a kernel with pidfd_madvise says EINVAL. */
	errno = 0;
	r = syscall(__NR_pidfd_madvise, pidfd, 1L, NULL, NULL, NULL, 1UL);
	n += row(pm_name, r < 0 && errno != ENOSYS, err(r));
	/* Unknown flags: EINVAL with process_vm_mmap, ENOSYS without. */
	errno = 0;
	r = syscall(__NR_process_vm_mmap, child, (unsigned long)buf, pg, 0UL, ~0UL);
	n += row(pv_name, r < 0 && errno != ENOSYS, err(r));
	r = access("/proc/self/madvise", F_OK);
	n += row("/proc/<pid>/madvise (KSM merge/unmerge)", r == 0, err(r));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("  %d of 8 interfaces present\n", n);
	for (int i = 0; i < nmissing; i++)
		printf("missing: %s\n", missing[i]);
	/* A kernel without every interface is not the product: fail. */
	return n == 8 ? 0 : 1;
}
