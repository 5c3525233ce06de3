// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pmadv-cost: where the time of one call goes, for a single range
 * given to another process by process_madvise (440) and by pidfd_madvise.
 *
 * A target child holds one page-distinct anonymous page.  Each case makes
 * CALLS calls (default 4096) in a loop and reports ns per call (median and
 * min..max of $BENCH_REPEATS loops), cases interleaved per repeat:
 *   bare syscall             getppid(), the entry and exit alone;
 *   pidfd_madvise, nr 0      reads both pr_madvise_param, stops at nr_elem;
 *   440, empty iovec         import_iovec, pidfd, mm_access, no lock taken;
 *   pidfd_madvise, empty     the same plus the three arrays read, the result
 *                            prefilled and written, no lock taken;
 *   440, 4 KiB COOL          the above plus the lock, the walk and the flush;
 *   pidfd_madvise, 4 KiB COOL
 * and, per repeat, the ratio of the two 4 KiB calls (440 / pidfd: above 1
 * means pidfd_madvise is faster).  The differences between rows are what
 * each step costs.  Under TCG every user access section toggles the SMAP
 * state, which QEMU translates as the end of a block: those steps weigh
 * more there than on hardware.
 *
 * Usage: bench-pmadv-cost [CALLS]
 * Exit: 0, 1 on error, 77 when the kernel lacks pidfd_madvise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

enum { BARE, PIDFD_NR0, P440_EMPTY, PIDFD_EMPTY, P440_PAGE, PIDFD_PAGE,
       NCASES };

static const char *const names[NCASES] = {
	"bare syscall (getppid)",
	"pidfd_madvise, nr_elem 0 (EINVAL)",
	"440, one empty iovec",
	"pidfd_madvise, one empty range",
	"440, one 4 KiB MADV_COLD range",
	"pidfd_madvise, one 4 KiB MADV_COLD range",
};

static int pidfd;
static void *page;

/* One call of case @c; -1 when it did not answer as expected. */
static int call(int c)
{
	static long out;
	struct iovec range = { page, 0 }, result = { &out, sizeof(out) };
	struct pr_madvise_param rp = { sizeof(rp), &result };
	struct pr_madvise_param qp = { sizeof(qp), &range };
	int adv = MADV_COLD;
	long len = 0;

	switch (c) {
	case BARE:
		return syscall(__NR_getppid) > 0 ? 0 : -1;
	case PIDFD_NR0:
		return syscall(__NR_pidfd_madvise, pidfd, 0, &adv, &rp, &qp,
			       0) == -1 && errno == EINVAL ? 0 : -1;
	case P440_PAGE:
		len = range.iov_len = 4096;
		/* fall through */
	case P440_EMPTY:
		return syscall(__NR_process_madvise, pidfd, &range, 1,
			       MADV_COLD, 0) == len ? 0 : -1;
	case PIDFD_PAGE:
		range.iov_len = 4096;
		/* fall through */
	case PIDFD_EMPTY:
		out = -1;
		return syscall(__NR_pidfd_madvise, pidfd, 1, &adv, &rp, &qp,
			       0) == 0 && out >= 0 ? 0 : -1;
	}
	return -1;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? strtol(argv[1], NULL, 0) : 4096;
	double ns[NCASES][BENCH_MAX_REPEATS], ratio[BENCH_MAX_REPEATS];
	int reps = bench_repeats(), r, c, p[2];
	struct bench_stat st;
	uint64_t addr;
	pid_t pid;
	long i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	errno = 0;
	if (syscall(__NR_pidfd_madvise, -1, 1, NULL, NULL, NULL, 0) == -1 &&
	    errno == ENOSYS) {
		printf("bench-pmadv-cost: pidfd_madvise not supported\n");
		return 77;
	}
	if (calls < 1 || pipe(p))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		char *q = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (q == MAP_FAILED)
			_exit(1);
		memset(q, 0x5a, 4096);
		addr = (uintptr_t)q;
		if (write(p[1], &addr, sizeof(addr)) != sizeof(addr))
			_exit(1);
		pause();
		_exit(0);
	}
	if (read(p[0], &addr, sizeof(addr)) != sizeof(addr))
		return 1;
	page = (void *)(uintptr_t)addr;
	pidfd = syscall(__NR_pidfd_open, pid, 0);
	if (pidfd < 0)
		return 1;

	bench_header();
	for (r = 0; r < reps; r++) {
		for (c = 0; c < NCASES; c++) {
			/* rotate the order so no case always runs first */
			int k = (c + r) % NCASES;
			double t0 = bench_now();

			for (i = 0; i < calls; i++) {
				if (call(k)) {
					fprintf(stderr, "%s: %s\n", names[k],
						strerror(errno));
					return 1;
				}
			}
			ns[k][r] = (bench_now() - t0) * 1e9 / calls;
		}
		ratio[r] = ns[P440_PAGE][r] / ns[PIDFD_PAGE][r];
	}
	for (c = 0; c < NCASES; c++) {
		st = bench_summarize(ns[c], reps);
		bench_row("pmadv-cost", names[c], "1 call", st, "ns/call",
			  NULL);
	}
	st = bench_summarize(ratio, reps);
	bench_row("pmadv-cost", "440 / pidfd_madvise, one 4 KiB range",
		  "1 call", st, "x", "above 1: pidfd_madvise faster");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 0;
}
