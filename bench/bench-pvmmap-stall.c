// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pvmmap-stall: how long process_vm_mmap() holds up its source, and
 * how soon a SIGKILLed caller is gone.
 *
 *   bench-pvmmap-stall [GiB ...]        (default: 8 16)
 *
 * For each size, a source maps that much private anonymous memory, writes
 * one page and fills the rest with zero-page PTEs (MADV_POPULATE_READ), so
 * that every PTE gets copied.  It then times rounds of mmap + touch +
 * munmap of one page, keeping the worst round.  Rows (see bench.h):
 *   - "alone": the source's worst round with nothing else running;
 *   - "copy, source idle": the copy's time while the source's loop
 *     sleeps (no one contends for the mmap locks);
 *   - "copy": the copy's time, the kernel choosing the address, while the
 *     source's loop runs;
 *   - "stall": the source's worst round while the copy ran;
 *   - "killed" / "killed same address": a caller SIGKILLed 100 ms into a
 *     copy, to a kernel-chosen address and to the source's own address
 *     (PVMMAP_FIXED_NOREPLACE), is reaped after this long.
 * Exit 77 when the kernel has no process_vm_mmap().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <asm/unistd.h>
#include <linux/mman.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench.h"

/* Shared with the source: stop and pause flags, worst round (us), rounds. */
struct shared {
	long stop, pause, worst_us, rounds;
};

struct source {
	pid_t pid;
	char *addr;
	unsigned long len;
	struct shared *sh;
};

static void source_loop(struct source *s)
{
	long pg = sysconf(_SC_PAGESIZE);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	s->addr[0] = 1;
	if (madvise(s->addr + pg, s->len - pg, MADV_POPULATE_READ))
		_exit(2);
	__atomic_store_n(&s->sh->rounds, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->sh->stop, __ATOMIC_RELAXED)) {
		double t0;
		char *q;
		long us;

		if (__atomic_load_n(&s->sh->pause, __ATOMIC_RELAXED)) {
			usleep(1000);
			continue;
		}
		t0 = bench_now();
		q = mmap(NULL, pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q == MAP_FAILED)
			_exit(3);
		q[0] = 1;
		munmap(q, pg);
		us = (bench_now() - t0) * 1e6;
		if (us > __atomic_load_n(&s->sh->worst_us, __ATOMIC_RELAXED))
			__atomic_store_n(&s->sh->worst_us, us, __ATOMIC_RELAXED);
		__atomic_add_fetch(&s->sh->rounds, 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

static int source_start(struct source *s, unsigned long len)
{
	s->len = len;
	s->sh = mmap(NULL, sizeof(*s->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	s->addr = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->sh == MAP_FAILED || s->addr == MAP_FAILED)
		return -1;
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (!s->pid)
		source_loop(s);
	/* The caller keeps nothing there: the source's address is free here. */
	munmap(s->addr, len);
	while (!__atomic_load_n(&s->sh->rounds, __ATOMIC_ACQUIRE))
		usleep(10000);
	return 0;
}

static double worst_ms_reset(struct source *s)
{
	return __atomic_exchange_n(&s->sh->worst_us, 0, __ATOMIC_RELAXED) / 1e3;
}

/* A caller copies the range and is SIGKILLed 100 ms in: ms until reaped. */
static double killed_ms(struct source *s, int same_address)
{
	double t0;
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		long r = bench_pvmmap(s->pid, s->addr, s->len,
				same_address ? s->addr : NULL,
				same_address ? PVMMAP_FIXED_NOREPLACE : 0);

		_exit(r == -1 ? 1 : 0);
	}
	usleep(100000);
	kill(pid, SIGKILL);
	t0 = bench_now();
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (!WIFSIGNALED(st))
		printf("note: the copy ended before the SIGKILL: size too small\n");
	return (bench_now() - t0) * 1e3;
}

static void row(const char *cas, unsigned long gib, double *v, int n,
		const char *unit)
{
	char size[32];

	snprintf(size, sizeof(size), "%lu GiB", gib);
	bench_row("pvmmap-stall", cas, size, bench_summarize(v, n), unit, "");
}

static int run(unsigned long gib)
{
	double alone[BENCH_MAX_REPEATS], copy[BENCH_MAX_REPEATS];
	double stall[BENCH_MAX_REPEATS], kill1[BENCH_MAX_REPEATS];
	double kill2[BENCH_MAX_REPEATS], idle[BENCH_MAX_REPEATS];
	int i, n = bench_repeats(), st;
	struct source s;
	double t0;
	long r;

	if (source_start(&s, gib << 30))
		return -1;
	for (i = 0; i < n; i++) {
		__atomic_store_n(&s.sh->pause, 1, __ATOMIC_RELAXED);
		usleep(20000);
		t0 = bench_now();
		r = bench_pvmmap(s.pid, s.addr, s.len, NULL, 0);
		idle[i] = (bench_now() - t0) * 1e3;
		if (r == -1) {
			perror("process_vm_mmap");
			return -1;
		}
		munmap((void *)r, s.len);
		__atomic_store_n(&s.sh->pause, 0, __ATOMIC_RELAXED);
		worst_ms_reset(&s);
		usleep(300000);
		alone[i] = worst_ms_reset(&s);
		t0 = bench_now();
		r = bench_pvmmap(s.pid, s.addr, s.len, NULL, 0);
		copy[i] = (bench_now() - t0) * 1e3;
		/* A round the copy held up ends, and is counted, after it. */
		usleep(100000);
		stall[i] = worst_ms_reset(&s);
		if (r == -1) {
			perror("process_vm_mmap");
			return -1;
		}
		munmap((void *)r, s.len);
		kill1[i] = killed_ms(&s, 0);
		kill2[i] = killed_ms(&s, 1);
	}
	printf("%lu GiB: copy %.0f ms, source's worst round %.1f ms during it (%.2f of the copy), %.1f ms alone\n",
	       gib, copy[n / 2], stall[n / 2], stall[n / 2] / copy[n / 2],
	       alone[n / 2]);
	row("alone", gib, alone, n, "ms");
	row("copy, source idle", gib, idle, n, "ms");
	row("copy", gib, copy, n, "ms");
	row("stall", gib, stall, n, "ms");
	row("killed", gib, kill1, n, "ms");
	row("killed same address", gib, kill2, n, "ms");
	__atomic_store_n(&s.sh->stop, 1, __ATOMIC_RELAXED);
	waitpid(s.pid, &st, 0);
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned long def[] = { 8, 16 };
	int i, rc = 0;

	if (bench_pvmmap(getpid(), NULL, 0, NULL, 0) != -1 || errno != EINVAL) {
		printf("bench-pvmmap-stall: no process_vm_mmap()\n");
		return 77;
	}
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			rc |= run(strtoul(argv[i], NULL, 0)) ? 1 : 0;
	} else {
		for (i = 0; i < 2; i++)
			rc |= run(def[i]) ? 1 : 0;
	}
	return rc;
}
