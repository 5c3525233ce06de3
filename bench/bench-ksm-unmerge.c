// SPDX-License-Identifier: GPL-2.0
/*
 * bench-ksm-unmerge: how long "echo unmerge > /proc/<pid>/madvise" stops a
 * large merged target.  A target holds MiB of identical pages, merged by KSM
 * after "echo merge"; one of its threads maps, touches and unmaps a page in
 * a loop, which takes its mmap_lock for writing.  While the manager writes
 * "unmerge", the bench records the write's duration, the target thread's
 * worst round and how many rounds it completed meanwhile.
 *
 * Usage: bench-ksm-unmerge [MiB ...]      (default: 64 256)
 * Build: gcc -static -O2 -Wall -isystem $obj/usr/include -I bench \
 *            -o bench-ksm-unmerge bench/bench-ksm-unmerge.c -lpthread
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "bench.h"

#define KSM "/sys/kernel/mm/ksm/"
#define TIMEOUT_S 600.0

/* Shared with the target: its mapper thread's figures for one window. */
struct window {
	volatile int open;
	volatile long rounds;
	volatile double worst;
};

static long pagesize;
static struct window *win;

static void *mapper(void *arg)
{
	double t0, dt;
	char *p;

	for (;;) {
		t0 = bench_now();
		p = mmap(NULL, pagesize, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		*p = 1;
		munmap(p, pagesize);
		dt = bench_now() - t0;
		if (win->open) {
			win->rounds++;
			if (dt > win->worst)
				win->worst = dt;
		}
	}
	return NULL;
}

static pid_t spawn(size_t pages)
{
	pthread_t th;
	pid_t pid;
	char *mem;
	int fd[2];
	char r = 0;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid)
		goto parent;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	mem = mmap(NULL, pages * pagesize, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		_exit(1);
	memset(mem, 0x5a, pages * pagesize);
	if (pthread_create(&th, NULL, mapper, NULL) ||
	    write(fd[1], &r, 1) != 1)
		_exit(1);
	pause();
	_exit(0);
parent:
	close(fd[1]);
	if (pid < 0 || read(fd[0], &r, 1) != 1)
		pid = -1;
	close(fd[0]);
	return pid;
}

/* One run: 0, with the write's seconds, worst round and rounds in @out. */
static int one_run(size_t pages, double out[3])
{
	char path[64];
	double t0;
	pid_t pid;
	int ret = -1;

	pid = spawn(pages);
	if (pid < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/madvise", pid);
	if (bench_write_str(path, "merge"))
		goto out;
	t0 = bench_now();
	while (bench_ksm_merging(pid) < (long long)pages * 9 / 10)
		if (bench_now() - t0 > TIMEOUT_S)
			goto out;
		else
			usleep(10000);
	win->rounds = 0;
	win->worst = 0;
	win->open = 1;
	t0 = bench_now();
	ret = bench_write_str(path, "unmerge");
	out[0] = bench_now() - t0;
	win->open = 0;
	out[1] = win->worst;
	out[2] = win->rounds;
	if (!ret && bench_ksm_merging(pid) > (long long)pages / 10)
		ret = -1;
out:
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	usleep(200000);
	return ret;
}

int main(int argc, char **argv)
{
	static const char *dflt[] = { "64", "256" };
	double t[BENCH_MAX_REPEATS], w[BENCH_MAX_REPEATS], n[BENCH_MAX_REPEATS];
	const char **sizes = argc > 1 ? (const char **)argv + 1 : dflt;
	int nsizes = argc > 1 ? argc - 1 : 2, reps = bench_repeats(), i, k;
	char size[32], deltas[64];

	pagesize = sysconf(_SC_PAGESIZE);
	win = mmap(NULL, sizeof(*win), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (win == MAP_FAILED || access("/proc/self/madvise", F_OK) ||
	    bench_write_str(KSM "run", "1") ||
	    bench_write_str(KSM "pages_to_scan", "8192") ||
	    bench_write_str(KSM "sleep_millisecs", "10")) {
		printf("bench-ksm-unmerge: no KSM or no /proc/<pid>/madvise\n");
		return 77;
	}
	bench_header();
	for (k = 0; k < nsizes; k++) {
		size_t pages = strtoul(sizes[k], NULL, 0) * (1UL << 20) /
			       pagesize;
		double out[3];

		for (i = 0; i < reps; i++) {
			if (one_run(pages, out)) {
				printf("bench-ksm-unmerge: %s MiB failed\n",
				       sizes[k]);
				return 1;
			}
			t[i] = out[0] * 1e3;
			w[i] = out[1] * 1e3;
			n[i] = out[2];
		}
		snprintf(size, sizeof(size), "%s MiB", sizes[k]);
		snprintf(deltas, sizeof(deltas), "%zu pages merged", pages);
		bench_row("ksm-unmerge", "unmerge write", size,
			  bench_summarize(t, reps), "ms", deltas);
		bench_row("ksm-unmerge", "target's worst mmap round", size,
			  bench_summarize(w, reps), "ms", NULL);
		bench_row("ksm-unmerge", "target's rounds during unmerge",
			  size, bench_summarize(n, reps), "rounds", NULL);
	}
	bench_write_str(KSM "run", "0");
	return 0;
}
