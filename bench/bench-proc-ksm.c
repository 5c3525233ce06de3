// SPDX-License-Identifier: GPL-2.0
/*
 * bench-proc-ksm: time from "echo merge > /proc/<pid>/madvise" until ksmd
 * has merged 90% of two processes' identical data, against the processes
 * enabling KSM themselves with prctl(PR_SET_MEMORY_MERGE, 1) on the same
 * data, at one fixed ksmd setting.  Prints both and their ratio.
 *
 * Usage: bench-proc-ksm [MiB ...]      (default: 64 256; smaller for TCG)
 * Build: gcc -static -O2 -Wall -isystem $obj/usr/include -I bench \
 *            -o bench-proc-ksm bench/bench-proc-ksm.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "bench.h"

#ifndef PR_SET_MEMORY_MERGE
#define PR_SET_MEMORY_MERGE 67
#endif

#define KSM "/sys/kernel/mm/ksm/"
#define PAGES_TO_SCAN "8192"
#define SLEEP_MS "10"
#define TIMEOUT_S 1800.0

static long pagesize;

struct child {
	pid_t pid;
	int cmd, res;
};

/* A child with @pages of data identical across children, distinct per page. */
static void child_main(size_t pages, int cmd, int res)
{
	unsigned long p, i, words = pagesize / sizeof(uint64_t);
	uint64_t *mem;
	char c, r = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	mem = mmap(NULL, pages * pagesize, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		_exit(1);
	for (p = 0; p < pages; p++)
		for (i = 0; i < words; i++)
			mem[p * words + i] = ((uint64_t)p << 32) ^ i ^
					     0x42454e4348000000ull;
	if (write(res, &r, 1) != 1)
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		if (c == 'P')
			r = prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0) ? errno : 0;
		if (write(res, &r, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static int spawn(struct child *c, size_t pages)
{
	int cmd[2], res[2];
	char r;

	if (pipe(cmd) || pipe(res))
		return -1;
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (!c->pid) {
		close(cmd[1]);
		close(res[0]);
		child_main(pages, cmd[0], res[1]);
	}
	close(cmd[0]);
	close(res[1]);
	c->cmd = cmd[1];
	c->res = res[0];
	return read(c->res, &r, 1) == 1 ? 0 : -1;
}

static void reap(struct child *c)
{
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, 0);
	close(c->cmd);
	close(c->res);
}

/* Enable KSM in both children by @how; seconds until 90% merged, or -1. */
static double one_run(size_t pages, bool proc)
{
	struct child c[2];
	double t0, t = -1;
	char path[64], r;
	int i;

	if (spawn(&c[0], pages) || spawn(&c[1], pages))
		return -1;
	t0 = bench_now();
	for (i = 0; i < 2; i++) {
		if (proc) {
			snprintf(path, sizeof(path), "/proc/%d/madvise",
				 c[i].pid);
			if (bench_write_str(path, "merge"))
				goto out;
		} else {
			if (write(c[i].cmd, "P", 1) != 1 ||
			    read(c[i].res, &r, 1) != 1 || r)
				goto out;
		}
	}
	while (bench_now() - t0 < TIMEOUT_S) {
		if (bench_ksm_merging(c[0].pid) >= (long long)pages * 9 / 10 &&
		    bench_ksm_merging(c[1].pid) >= (long long)pages * 9 / 10) {
			t = bench_now() - t0;
			break;
		}
		usleep(10000);
	}
out:
	reap(&c[0]);
	reap(&c[1]);
	/* Let ksmd drop the dead processes' rmap items before the next run. */
	usleep(200000);
	return t;
}

int main(int argc, char **argv)
{
	static const char * const knobs[] = {
		"run", "pages_to_scan", "sleep_millisecs", "smart_scan",
	};
	static const size_t def_sizes[] = { 64, 256 };
	long long saved[4];
	int n = bench_repeats(), nsizes, s, i, k, ret = 0;
	double proc[BENCH_MAX_REPEATS], self[BENCH_MAX_REPEATS];
	char path[128], size[32], deltas[96];

	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesize = sysconf(_SC_PAGESIZE);
	if (access("/proc/self/madvise", F_OK)) {
		printf("bench-proc-ksm: /proc/<pid>/madvise not supported\n");
		return 77;
	}
	for (k = 0; k < 4; k++) {
		snprintf(path, sizeof(path), KSM "%s", knobs[k]);
		saved[k] = bench_read_ll(path);
	}
	bench_write_str(KSM "pages_to_scan", PAGES_TO_SCAN);
	bench_write_str(KSM "sleep_millisecs", SLEEP_MS);
	bench_write_str(KSM "smart_scan", "0");
	bench_write_str(KSM "run", "1");
	printf("# ksmd: pages_to_scan=%s sleep_millisecs=%s smart_scan=0; %d runs per case; time from enabling KSM in two processes to 90%% of their pages merged\n",
	       PAGES_TO_SCAN, SLEEP_MS, n);

	nsizes = argc > 1 ? argc - 1 : 2;
	bench_header();
	for (s = 0; s < nsizes; s++) {
		size_t mb = argc > 1 ? strtoul(argv[s + 1], NULL, 0) :
				       def_sizes[s];
		size_t pages = mb * 1024 * 1024 / pagesize;
		struct bench_stat sp, ss;
		long long scans0, scans1;

		snprintf(size, sizeof(size), "%zuMiB x2", mb);
		/* Interleave the cases so drift hits both alike. */
		scans0 = bench_read_ll(KSM "full_scans");
		for (i = 0; i < n; i++) {
			proc[i] = one_run(pages, true);
			self[i] = one_run(pages, false);
			if (proc[i] < 0 || self[i] < 0) {
				printf("bench-proc-ksm: run failed or timed out (%zu MiB)\n",
				       mb);
				ret = 1;
				goto out;
			}
		}
		scans1 = bench_read_ll(KSM "full_scans");
		snprintf(deltas, sizeof(deltas), "ksm full_scans=%.1f",
			 (double)(scans1 - scans0) / (2 * n));
		sp = bench_summarize(proc, n);
		ss = bench_summarize(self, n);
		bench_row("proc-ksm", "echo merge > /proc/pid/madvise", size,
			  sp, "s", deltas);
		bench_row("proc-ksm", "prctl(PR_SET_MEMORY_MERGE) in target",
			  size, ss, "s", deltas);
		printf("# %s: /proc/<pid>/madvise / prctl = %.2f (median)\n",
		       size, sp.median / ss.median);
	}
out:
	for (k = 3; k >= 0; k--) {
		char buf[32];

		if (saved[k] < 0 || (k == 0 && saved[k] == 2))
			continue;
		snprintf(path, sizeof(path), KSM "%s", knobs[k]);
		snprintf(buf, sizeof(buf), "%lld", saved[k]);
		bench_write_str(path, buf);
	}
	return ret;
}
