// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-page-server: the use case of Kirill Tkhai's process_vm_mmap()
 * posting.  A child receives a large buffer over a pipe (a page server,
 * or a container's memory during migration); the parent then takes the
 * data, once with process_vm_readv() (a copy) and once with
 * process_vm_mmap() (page tables only).  For each it prints the time, the
 * memory it cost (MemFree) and the swap-ins (pswpin), first with the
 * child's buffer resident and then with it swapped out (MADV_PAGEOUT).
 *
 *   scenario-page-server [MiB]      (default 256)
 *
 * Exit status: 0 on success, 1 on a failure or wrong data, 77 when the
 * kernel has no process_vm_mmap().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/mman.h>

static long pgsz;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long long proc_value(const char *file, const char *key)
{
	char k[64];
	long long v, ret = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld%*[^\n]", k, &v) == 2) {
		size_t n = strlen(k);

		if (n && k[n - 1] == ':')
			k[n - 1] = 0;
		if (!strcmp(k, key)) {
			ret = v;
			break;
		}
	}
	fclose(f);
	return ret;
}

static long long memfree_kb(void)
{
	return proc_value("/proc/meminfo", "MemFree");
}

static long long pswpin(void)
{
	return proc_value("/proc/vmstat", "pswpin");
}

static uint64_t gen(uint64_t i)
{
	i = i * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
	i ^= i >> 31;
	i *= 0x94d049bb133111ebULL;
	return i ^ (i >> 29);
}

static uint64_t checksum(const char *p, size_t len)
{
	const uint64_t *w = (const uint64_t *)p;
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < len / 8; i += 64)	/* a word every 512 bytes */
		s = s * 31 + w[i];
	return s;
}

/* Child: receive the buffer, report its address, then obey commands. */
static void child(int in, int cmd, int rsp, size_t len)
{
	char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t got = 0;
	ssize_t n;
	char c;

	if (buf == MAP_FAILED)
		_exit(1);
	while (got < len) {
		n = read(in, buf + got, len - got);
		if (n <= 0)
			_exit(1);
		got += n;
	}
	if (write(rsp, &buf, sizeof(buf)) != sizeof(buf))
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		if (c == 'p')
			c = madvise(buf, len, MADV_PAGEOUT) ? 'E' : 'k';
		else
			_exit(0);
		if (write(rsp, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

struct result {
	double secs;
	long long mem_kb, swapins;
	uint64_t sum;
};

static int take_readv(pid_t pid, char *remote, size_t len, struct result *r)
{
	long long mf0 = memfree_kb(), sw0 = pswpin();
	struct iovec l, rv;
	double t0 = now();
	char *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -1;
	l.iov_base = buf;
	l.iov_len = len;
	rv.iov_base = remote;
	rv.iov_len = len;
	if (process_vm_readv(pid, &l, 1, &rv, 1, 0) != (ssize_t)len)
		return -1;
	r->secs = now() - t0;
	r->mem_kb = mf0 - memfree_kb();
	r->swapins = pswpin() - sw0;
	r->sum = checksum(buf, len);
	munmap(buf, len);
	return 0;
}

static int take_mmap(pid_t pid, char *remote, size_t len, struct result *r)
{
	long long mf0 = memfree_kb(), sw0 = pswpin();
	double t0 = now();
	long ret;

	ret = syscall(__NR_process_vm_mmap, pid, (unsigned long)remote, len,
		      0UL, 0UL);
	if (ret == -1)
		return -1;
	r->secs = now() - t0;
	r->mem_kb = mf0 - memfree_kb();
	r->swapins = pswpin() - sw0;
	/* Reading it all costs the swap-ins a swapped source needs. */
	r->sum = checksum((char *)ret, len);
	munmap((void *)ret, len);
	return 0;
}

static void print(const char *what, const char *state, size_t len,
		  struct result *r)
{
	printf("%-18s %-9s %5zu MiB  %9.3f ms  %8.1f MiB/s  mem %+8lld kB  pswpin %7lld\n",
	       what, state, len >> 20, r->secs * 1e3,
	       (len >> 20) / (r->secs > 0 ? r->secs : 1e-9), r->mem_kb,
	       r->swapins);
}

static int pageout(int cmd, int rsp)
{
	char c = 'p';

	if (write(cmd, &c, 1) != 1 || read(rsp, &c, 1) != 1)
		return -1;
	return c == 'k' ? 0 : -1;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	size_t len = mib << 20, sent = 0, i;
	int sv[2], cmd[2], rsp[2], st, rc = 0;
	struct result rr, rm;
	uint64_t *chunk;
	char *remote;
	pid_t pid;

	pgsz = sysconf(_SC_PAGESIZE);
	errno = 0;
	if (syscall(__NR_process_vm_mmap, getpid(), 0UL, 0UL, 0UL, 0UL) == -1 &&
	    errno == ENOSYS) {
		printf("process_vm_mmap: not supported\n");
		return 77;
	}
	if (!len || pipe(sv) || pipe(cmd) || pipe(rsp)) {
		perror("setup");
		return 1;
	}
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(sv[1]);
		child(sv[0], cmd[0], rsp[1], len);
	}
	close(sv[0]);

	/* Send the data, as a network peer would. */
	chunk = malloc(1 << 20);
	if (!chunk)
		return 1;
	while (sent < len) {
		for (i = 0; i < (1 << 20) / 8; i++)
			chunk[i] = gen((sent >> 3) + i);
		for (i = 0; i < 1 << 20; ) {
			ssize_t n = write(sv[1], (char *)chunk + i, (1 << 20) - i);

			if (n <= 0) {
				perror("write");
				return 1;
			}
			i += n;
		}
		sent += 1 << 20;
	}
	if (read(rsp[0], &remote, sizeof(remote)) != sizeof(remote))
		return 1;
	printf("child %d received %zu MiB at %p\n", pid, mib, remote);

	if (take_readv(pid, remote, len, &rr) || take_mmap(pid, remote, len, &rm)) {
		perror("take");
		rc = 1;
		goto out;
	}
	print("process_vm_readv", "resident", len, &rr);
	print("process_vm_mmap", "resident", len, &rm);
	if (rr.sum != rm.sum) {
		printf("FAIL: data differ\n");
		rc = 1;
	}

	if (pageout(cmd[1], rsp[0])) {
		printf("MADV_PAGEOUT failed: no swap? swapped-out case skipped\n");
		goto out;
	}
	if (take_readv(pid, remote, len, &rr))
		rc = 1;
	if (pageout(cmd[1], rsp[0]) || take_mmap(pid, remote, len, &rm))
		rc = 1;
	if (!rc) {
		print("process_vm_readv", "swapped", len, &rr);
		print("process_vm_mmap", "swapped", len, &rm);
		printf("  (process_vm_mmap's time and swap-ins are the call's; its\n"
		       "   checksum read afterwards brings the pages in)\n");
		if (rr.sum != rm.sum) {
			printf("FAIL: data differ\n");
			rc = 1;
		}
	}
out:
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	printf("%s\n", rc ? "FAIL" : "OK");
	return rc;
}
