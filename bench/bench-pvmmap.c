// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pvmmap: process_vm_mmap() against process_vm_readv() for taking a
 * buffer out of another process.
 *
 *   bench-pvmmap [MiB ...]        (default: 64 128 256 512 1024)
 *
 * Sizes larger than a third of MemAvailable are skipped.  For each size,
 * with 4 KiB pages and with THPs (MADV_HUGEPAGE, 2 MiB aligned), a child
 * fills a buffer and the parent takes it both ways.  Rows (see bench.h):
 * call time, the readv/mmap time ratio, bytes copied, extra memory
 * (MemFree drop) and, for a swapped-out source (MADV_PAGEOUT), swap-ins
 * during the call.  Exit 77 when the kernel has no process_vm_mmap().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "bench.h"

#define HPAGE (2UL << 20)


struct child {
	pid_t pid;
	int cmd, rsp;
	char *addr;
};

static void child_main(int cmd, int rsp, size_t len, int thp)
{
	char *raw, *p;
	size_t i;
	char c;

	raw = mmap(NULL, len + HPAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		_exit(1);
	p = (char *)(((unsigned long)raw + HPAGE - 1) & ~(HPAGE - 1));
	madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (i = 0; i < len; i += 512)
		*(uint64_t *)(p + i) = i * 0x9e3779b97f4a7c15ULL + 1;
	if (write(rsp, &p, sizeof(p)) != sizeof(p))
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		if (c == 'p')
			c = madvise(p, len, MADV_PAGEOUT) ? 'E' : 'k';
		else
			_exit(0);
		if (write(rsp, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static int child_start(struct child *c, size_t len, int thp)
{
	int a[2], b[2];

	if (pipe(a) || pipe(b))
		return -1;
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (!c->pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		child_main(a[0], b[1], len, thp);
	}
	close(a[0]);
	close(b[1]);
	c->cmd = a[1];
	c->rsp = b[0];
	return read(c->rsp, &c->addr, sizeof(c->addr)) == sizeof(c->addr) ? 0 : -1;
}

static int child_pageout(struct child *c)
{
	char x = 'p';

	if (write(c->cmd, &x, 1) != 1 || read(c->rsp, &x, 1) != 1)
		return -1;
	return x == 'k' ? 0 : -1;
}

static void child_stop(struct child *c)
{
	int st;

	kill(c->pid, SIGKILL);
	waitpid(c->pid, &st, 0);
	close(c->cmd);
	close(c->rsp);
}

/* One taking of the buffer; returns seconds, sets extra kB and swap-ins. */
static double take(struct child *c, size_t len, int use_mmap, char *buf,
		   long long *extra_kb, long long *swapins)
{
	long long mf0 = bench_meminfo_kb("MemFree"), sw0 = bench_vmstat("pswpin");
	double t0 = bench_now(), t;
	struct iovec l = { buf, len }, r = { c->addr, len };
	long ret;

	if (use_mmap) {
		ret = bench_pvmmap(c->pid, c->addr, len, NULL, 0);
		t = bench_now() - t0;
		if (ret == -1) {
			perror("process_vm_mmap");
			exit(1);
		}
	} else {
		ret = process_vm_readv(c->pid, &l, 1, &r, 1, 0);
		t = bench_now() - t0;
		if (ret != (long)len) {
			perror("process_vm_readv");
			exit(1);
		}
	}
	*extra_kb = mf0 - bench_meminfo_kb("MemFree");
	*swapins = bench_vmstat("pswpin") - sw0;
	if (use_mmap)
		munmap((void *)ret, len);
	else
		madvise(buf, len, MADV_DONTNEED);
	return t;
}

static void run(size_t mib, int thp)
{
	double tm[BENCH_MAX_REPEATS], tr[BENCH_MAX_REPEATS];
	double ratio[BENCH_MAX_REPEATS];
	long long kb_m = 0, kb_r = 0, sw_m = 0, sw_r = 0, e, s;
	int n = bench_repeats(), i, swapped;
	size_t len = mib << 20;
	const char *kind = thp ? "thp" : "4k";
	char size[32], cas[64], d[160];
	struct child c;
	char *buf;

	snprintf(size, sizeof(size), "%zuMiB", mib);
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || child_start(&c, len, thp)) {
		fprintf(stderr, "%s: setup failed\n", size);
		exit(1);
	}
	madvise(buf, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);

	for (swapped = 0; swapped < 2; swapped++) {
		for (i = 0; i < n; i++) {
			if (swapped && child_pageout(&c)) {
				printf("| pvmmap | %s swapped | %s | - | - | - | no swap |\n",
				       kind, size);
				goto out;
			}
			tr[i] = take(&c, len, 0, buf, &e, &s);
			kb_r = e;
			sw_r = s;
			if (swapped && child_pageout(&c))
				goto out;
			tm[i] = take(&c, len, 1, buf, &e, &s);
			kb_m = e;
			sw_m = s;
			ratio[i] = tr[i] / (tm[i] > 0 ? tm[i] : 1e-9);
		}
		snprintf(cas, sizeof(cas), "%s %s readv", kind,
			 swapped ? "swapped" : "resident");
		snprintf(d, sizeof(d), "copied %zu B, extra %lld kB, pswpin %lld",
			 len, kb_r, sw_r);
		bench_row("pvmmap", cas, size, bench_summarize(tr, n), "s", d);
		snprintf(cas, sizeof(cas), "%s %s mmap", kind,
			 swapped ? "swapped" : "resident");
		snprintf(d, sizeof(d), "copied 0 B, extra %lld kB, pswpin %lld",
			 kb_m, sw_m);
		bench_row("pvmmap", cas, size, bench_summarize(tm, n), "s", d);
		snprintf(cas, sizeof(cas), "%s %s readv/mmap", kind,
			 swapped ? "swapped" : "resident");
		bench_row("pvmmap", cas, size, bench_summarize(ratio, n), "x", "");
	}
out:
	child_stop(&c);
	munmap(buf, len);
}

int main(int argc, char **argv)
{
	static const size_t def[] = { 64, 128, 256, 512, 1024 };
	long long avail = bench_meminfo_kb("MemAvailable");
	size_t sizes[32], nsz = 0, i;
	int thp;

	errno = 0;
	if (bench_pvmmap(getpid(), NULL, 0, NULL, 0) == -1 && errno == ENOSYS) {
		printf("process_vm_mmap: not supported\n");
		return 77;
	}
	for (i = 1; i < (size_t)argc && nsz < 32; i++)
		sizes[nsz++] = strtoul(argv[i], NULL, 0);
	if (!nsz)
		for (i = 0; i < sizeof(def) / sizeof(def[0]); i++)
			sizes[nsz++] = def[i];

	bench_header();
	for (i = 0; i < nsz; i++) {
		/* Child buffer + readv buffer + slack. */
		if (avail > 0 && (long long)sizes[i] * 1024 * 3 > avail) {
			printf("| pvmmap | - | %zuMiB | - | - | - | skipped: MemAvailable %lld kB |\n",
			       sizes[i], avail);
			continue;
		}
		for (thp = 0; thp < 2; thp++)
			run(sizes[i], thp);
	}
	return 0;
}
