// SPDX-License-Identifier: GPL-2.0
/*
 * bench-vm-readv: the reference copy costs every mm-remote benchmark is
 * measured against.  A child holds SIZE bytes of varied data; the parent
 * copies them with process_vm_readv() (one iovec pair per call, in 64 MiB
 * pieces), and, in the same boot, copies the same amount inside itself
 * with memcpy().  Destination pages are touched beforehand in both cases,
 * so both measure the copy alone.
 *
 * usage: bench-vm-readv [MiB ...]   (default 64 256 1024)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"

#define PIECE (64UL << 20)

static void fill(char *p, size_t len)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < len; i += 8) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		*(uint64_t *)(p + i) = x;
	}
}

static char *alloc(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	static const char *defs[] = { "64", "256", "1024" };
	const char **sizes = argc > 1 ? (const char **)argv + 1 : defs;
	int nsizes = argc > 1 ? argc - 1 : 3;
	int reps = bench_repeats(), s, r;
	double t_rd[BENCH_MAX_REPEATS], t_mc[BENCH_MAX_REPEATS];

	bench_header();
	for (s = 0; s < nsizes; s++) {
		size_t len = strtoul(sizes[s], NULL, 0) << 20, off;
		int pfd[2];
		char *src, *dst, label[32], deltas[128];
		struct bench_stat rd, mc;
		long long f0, f1;
		pid_t child;

		snprintf(label, sizeof(label), "%s MiB", sizes[s]);
		src = alloc(len);
		fill(src, len);
		if (pipe(pfd))
			return 1;
		child = fork();
		if (child == 0) {
			close(pfd[0]);
			write(pfd[1], "r", 1);
			pause();
			_exit(0);
		}
		close(pfd[1]);
		{ char c; read(pfd[0], &c, 1); }
		dst = alloc(len);
		f0 = bench_vmstat("pgfault");
		for (r = 0; r < reps; r++) {
			double t = bench_now();

			for (off = 0; off < len; off += PIECE) {
				struct iovec l = { dst + off, PIECE < len - off ? PIECE : len - off };
				struct iovec rv = { src + off, l.iov_len };

				if (process_vm_readv(child, &l, 1, &rv, 1, 0) != (ssize_t)l.iov_len) {
					perror("process_vm_readv");
					return 1;
				}
			}
			t_rd[r] = bench_now() - t;
		}
		f1 = bench_vmstat("pgfault");
		if (memcmp(src, dst, len)) {
			fprintf(stderr, "process_vm_readv copied wrong data\n");
			return 1;
		}
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		for (r = 0; r < reps; r++) {
			double t = bench_now();

			memcpy(dst, src, len);
			t_mc[r] = bench_now() - t;
		}
		rd = bench_summarize(t_rd, reps);
		mc = bench_summarize(t_mc, reps);
		rd.median *= 1e3; rd.min *= 1e3; rd.max *= 1e3;
		mc.median *= 1e3; mc.min *= 1e3; mc.max *= 1e3;
		snprintf(deltas, sizeof(deltas), "pgfault %+lld", (f1 - f0) / reps);
		bench_row("vm-readv", "process_vm_readv", label, rd, "ms", deltas);
		bench_row("vm-readv", "memcpy (same process)", label, mc, "ms", "");
		printf("| vm-readv | ratio readv/memcpy | %s | %.2f | | x | |\n",
		       label, rd.median / mc.median);
		printf("| vm-readv | readv throughput | %s | %.0f | | MiB/s | |\n",
		       label, (len >> 20) / (rd.median / 1e3));
		munmap(src, len);
		munmap(dst, len);
	}
	return 0;
}
