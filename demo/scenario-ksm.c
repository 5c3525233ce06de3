// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-ksm: /proc/<pid>/madvise on two instances of one "runtime".
 *
 * Two children each fill their own N MiB (default 64) with the same
 * page-distinct "runtime data" and never call madvise() or prctl().  The
 * demo writes "merge" into both /proc/<pid>/madvise, waits for ksmd to
 * merge them and prints the MiB saved; then writes "unmerge", shows the
 * saving return to zero and has both children check their data.
 *
 * Exit: 0 success, 1 failure, 77 "not supported" (no /proc/<pid>/madvise).
 * Usage: scenario-ksm [MiB] [timeout-seconds]
 * Build: gcc -static -O2 -Wall -o scenario-ksm scenario-ksm.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#ifndef PR_GET_MEMORY_MERGE
#define PR_GET_MEMORY_MERGE 68
#endif

#define KSM "/sys/kernel/mm/ksm/"

static long pagesize;

struct child {
	pid_t pid;
	int cmd, res;
};

static long long read_ll(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtoll(buf, NULL, 10);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static long long merging(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/ksm_merging_pages", pid);
	return read_ll(path);
}

static double mib(long long pages)
{
	return (double)pages * pagesize / (1024.0 * 1024.0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The "runtime data": identical in every instance, distinct per page. */
static uint64_t word(unsigned long page, unsigned long i)
{
	return 0x52554e54494d4500ull ^ ((uint64_t)page << 24) ^ (i * 2654435761u);
}

static void child_main(size_t pages, int cmd, int res)
{
	unsigned long p, i, words = pagesize / sizeof(uint64_t);
	uint64_t *mem;
	char c, ok;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	mem = mmap(NULL, pages * pagesize, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		_exit(1);
	for (p = 0; p < pages; p++)
		for (i = 0; i < words; i++)
			mem[p * words + i] = word(p, i);
	ok = 1;
	if (write(res, &ok, 1) != 1)
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		if (c == 'C') {		/* check the data */
			ok = 1;
			for (p = 0; p < pages && ok; p++)
				for (i = 0; i < words; i++)
					if (mem[p * words + i] != word(p, i)) {
						ok = 0;
						break;
					}
		} else if (c == 'G') {	/* prctl state as the child sees it */
			ok = (char)prctl(PR_GET_MEMORY_MERGE, 0, 0, 0, 0);
		} else {
			_exit(0);
		}
		if (write(res, &ok, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static int ask(struct child *c, char cmd)
{
	char r;

	if (write(c->cmd, &cmd, 1) != 1 || read(c->res, &r, 1) != 1)
		return -1;
	return r;
}

static int madvise_word(pid_t pid, const char *w)
{
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/madvise", pid);
	printf("# echo %s > %s\n", w, path);
	err = write_str(path, w);
	if (err)
		printf("  failed: %s\n", strerror(-err));
	return err;
}

static const char * const knobs[] = { "run", "pages_to_scan", "sleep_millisecs" };
static long long saved[3];

static void ksm_restore(void)
{
	char buf[32], path[128];
	int i;

	for (i = 0; i < 3; i++) {
		if (saved[i] < 0 || (i == 0 && saved[i] == 2))
			continue;
		snprintf(buf, sizeof(buf), "%lld", saved[i]);
		snprintf(path, sizeof(path), KSM "%s", knobs[i]);
		write_str(path, buf);
	}
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	double timeout = argc > 2 ? atof(argv[2]) : 600, t0, t;
	long long pages, base_sharing, sharing, m0, m1;
	struct child c[2] = { { 0 }, { 0 } };
	int i, ret = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesize = sysconf(_SC_PAGESIZE);
	pages = (long long)mb * 1024 * 1024 / pagesize;
	if (access("/proc/self/madvise", F_OK)) {
		printf("scenario-ksm: /proc/<pid>/madvise not supported\n");
		return 77;
	}
	if (read_ll(KSM "run") < 0) {
		printf("scenario-ksm: KSM not supported (no %srun)\n", KSM);
		return 77;
	}

	printf("== /proc/<pid>/madvise: KSM for two instances that never asked for it ==\n");
	for (i = 0; i < 3; i++) {
		char path[128];

		snprintf(path, sizeof(path), KSM "%s", knobs[i]);
		saved[i] = read_ll(path);
	}
	write_str(KSM "pages_to_scan", "4096");
	write_str(KSM "sleep_millisecs", "10");
	write_str(KSM "run", "1");
	printf("ksmd: run=1 pages_to_scan=4096 sleep_millisecs=10\n");

	for (i = 0; i < 2; i++) {
		int cmd[2], res[2];
		char r;

		if (pipe(cmd) || pipe(res))
			goto out;
		c[i].pid = fork();
		if (c[i].pid < 0)
			goto out;
		if (!c[i].pid) {
			close(cmd[1]);
			close(res[0]);
			child_main(pages, cmd[0], res[1]);
		}
		close(cmd[0]);
		close(res[1]);
		c[i].cmd = cmd[1];
		c[i].res = res[0];
		if (read(c[i].res, &r, 1) != 1)
			goto out;
	}
	base_sharing = read_ll(KSM "pages_sharing");
	printf("instances %d and %d: %zu MiB of identical runtime data each; KSM saves %.1f MiB\n",
	       c[0].pid, c[1].pid, mb, mib(base_sharing));

	for (i = 0; i < 2; i++)
		if (madvise_word(c[i].pid, "merge"))
			goto out;
	printf("prctl(PR_GET_MEMORY_MERGE) inside the instances: %d %d\n",
	       ask(&c[0], 'G'), ask(&c[1], 'G'));

	t0 = now();
	do {
		usleep(500000);
		m0 = merging(c[0].pid);
		m1 = merging(c[1].pid);
		sharing = read_ll(KSM "pages_sharing");
		t = now() - t0;
		printf("  %6.1fs  merged %7.1f / %7.1f MiB, saved %7.1f MiB\n",
		       t, mib(m0), mib(m1), mib(sharing - base_sharing));
	} while ((m0 < pages * 9 / 10 || m1 < pages * 9 / 10) && t < timeout);
	if (m0 < pages * 9 / 10 || m1 < pages * 9 / 10) {
		printf("FAIL: not merged within %.0f s\n", timeout);
		goto out;
	}
	printf("merged after %.1f s: %.1f MiB saved (of %zu MiB per instance)\n",
	       t, mib(sharing - base_sharing), mb);

	for (i = 0; i < 2; i++)
		if (madvise_word(c[i].pid, "unmerge"))
			goto out;
	printf("prctl(PR_GET_MEMORY_MERGE) inside the instances: %d %d\n",
	       ask(&c[0], 'G'), ask(&c[1], 'G'));
	t0 = now();
	do {
		m0 = merging(c[0].pid);
		m1 = merging(c[1].pid);
		sharing = read_ll(KSM "pages_sharing");
		t = now() - t0;
		printf("  %6.1fs  merged %7.1f / %7.1f MiB, saved %7.1f MiB\n",
		       t, mib(m0), mib(m1), mib(sharing - base_sharing));
		if ((m0 || m1 || sharing > base_sharing) && t < timeout)
			usleep(500000);
		else
			break;
	} while (1);
	if (m0 || m1 || sharing > base_sharing) {
		printf("FAIL: still merged after %.0f s\n", timeout);
		goto out;
	}
	i = ask(&c[0], 'C') == 1 && ask(&c[1], 'C') == 1;
	printf("unmerged after %.1f s: saving back to %.1f MiB; data intact: %s\n",
	       t, mib(sharing - base_sharing), i ? "yes" : "NO");
	ret = i ? 0 : 1;
out:
	for (i = 0; i < 2; i++)
		if (c[i].pid > 0) {
			kill(c[i].pid, SIGKILL);
			waitpid(c[i].pid, NULL, 0);
		}
	ksm_restore();
	printf("scenario-ksm: %s\n", ret ? "FAILED" : "ok");
	return ret;
}
