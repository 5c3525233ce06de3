// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pvmmap-rmap: what live process_vm_mmap() copies cost an rmap walk
 * of their source, against fork()ed children.
 *
 *   bench-pvmmap-rmap [N ...]        (default: 0 128 1024)
 *
 * A source process maps 64 measured pages plus N more in one private
 * anonymous VMA.  The time is that of move_pages() moving the 64 measured
 * pages to the other node (every migration walks rmap twice: to unmap, and
 * to restore the entries), in four setups of N:
 *   - "copies of them": N copies of the 64 pages, each a mapping of them;
 *   - "fork children": N children of the source, each a mapping of them;
 *   - "copies of other pages": N one-page copies of the N other pages: in
 *     the same anon_vma, but none maps a measured page;
 *   - "KSM, copies of other pages": the same, with the 64 measured pages
 *     merged by KSM into one (rmap_walk_ksm() visits every VMA of the
 *     anon_vma, not only those covering the page).
 * Needs two NUMA nodes (numa=fake=2); exit 77 without them or without
 * process_vm_mmap().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <asm/unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench.h"

#define MEASURED	64
#define MPOL_MF_MOVE_ALL_B	(1 << 2)

enum setup { COPIES, CHILDREN, OTHERS, KSM_OTHERS, NR_SETUPS };

static const char *const setup_name[NR_SETUPS] = {
	"copies of them", "fork children", "copies of other pages",
	"KSM, copies of other pages",
};

static long pg;

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) < 0)
		fprintf(stderr, "bench-pvmmap-rmap: cannot write %s\n", path);
	if (fd >= 0)
		close(fd);
}

/* The number a one-number file holds, or -1. */
static long read_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * The source: 64 + @n pages, measured ones distinct (or all equal and
 * mergeable for KSM), @children children sharing them.  Writes one byte to
 * @ready when set up, then waits to be killed.
 */
static pid_t source_start(char **addr, long n, int ksm, long children,
			  int ready)
{
	unsigned long len = (MEASURED + n) * pg;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	long i;

	if (p == MAP_FAILED)
		return -1;
	*addr = p;
	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (i = 0; i < MEASURED + n; i++) {
		memset(p + i * pg, ksm && i < MEASURED ? 0x5a : 0, pg);
		*(long *)(p + i * pg) = ksm && i < MEASURED ? 1 : i + 2;
	}
	if (ksm && madvise(p, MEASURED * pg, MADV_MERGEABLE))
		_exit(2);
	for (i = 0; i < children; i++) {
		pid_t c = fork();

		if (c < 0)
			_exit(3);
		if (!c) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
	}
	if (write(ready, "r", 1) != 1)
		_exit(4);
	for (;;)
		pause();
}

static int node_of(pid_t pid, void *addr)
{
	int status = -1;

	syscall(__NR_move_pages, pid, 1UL, &addr, NULL, &status, 0);
	return status;
}

/* Move the measured pages of @pid to @node: seconds, or -1. */
static double move_measured(pid_t pid, char *addr, int node)
{
	void *pages[MEASURED];
	int nodes[MEASURED], status[MEASURED], i;
	double t0;

	for (i = 0; i < MEASURED; i++) {
		pages[i] = addr + i * pg;
		nodes[i] = node;
	}
	t0 = bench_now();
	if (syscall(__NR_move_pages, pid, (unsigned long)MEASURED, pages,
		    nodes, status, MPOL_MF_MOVE_ALL_B) < 0)
		return -1;
	t0 = bench_now() - t0;
	for (i = 0; i < MEASURED; i++)
		if (status[i] != node)
			return -1;
	return t0;
}

static int ksm_wait_merged(pid_t pid)
{
	char path[64];
	int tries;

	snprintf(path, sizeof(path), "/proc/%d/ksm_merging_pages", pid);
	write_file("/sys/kernel/mm/ksm/pages_to_scan", "2000");
	write_file("/sys/kernel/mm/ksm/sleep_millisecs", "10");
	write_file("/sys/kernel/mm/ksm/run", "1");
	for (tries = 0; tries < 600; tries++) {
		if (read_long(path) >= MEASURED)
			break;
		usleep(100000);
	}
	/* Stopped, ksmd keeps what it merged and stays out of the timing. */
	write_file("/sys/kernel/mm/ksm/run", "0");
	return read_long(path) >= MEASURED ? 0 : -1;
}

static int run(enum setup s, long n, double *out, int reps)
{
	int fds[2], r, node, ok = 0;
	long i, ret;
	char *addr, c;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = source_start(&addr, n, s == KSM_OTHERS,
			   s == CHILDREN ? n : 0, fds[1]);
	if (pid < 0 || read(fds[0], &c, 1) != 1)
		goto out;
	if (s == KSM_OTHERS && ksm_wait_merged(pid)) {
		fprintf(stderr, "bench-pvmmap-rmap: ksmd did not merge\n");
		goto out;
	}
	for (i = 0; i < n && s != CHILDREN; i++) {
		if (s == COPIES)
			ret = bench_pvmmap(pid, addr, MEASURED * pg, NULL, 0);
		else
			ret = bench_pvmmap(pid, addr + (MEASURED + i) * pg, pg,
					   NULL, 0);
		if (ret == -1) {
			perror("process_vm_mmap");
			goto out;
		}
	}
	node = node_of(pid, addr);
	for (r = 0; r < reps; r++) {
		int try;

		node = !node;
		/* A KSM page can be busy for a moment (ksmd): three tries. */
		for (try = 0; try < 3; try++) {
			out[r] = move_measured(pid, addr, node) * 1e3;
			if (out[r] >= 0)
				break;
			usleep(100000);
		}
		if (out[r] < 0) {
			fprintf(stderr, "bench-pvmmap-rmap: %s, %ld: pages not moved\n",
				setup_name[s], n);
			goto out;
		}
	}
	ok = 1;
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	close(fds[0]);
	close(fds[1]);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	long def[] = { 0, 128, 1024 }, *ns = def, nn = 3, i;
	double v[BENCH_MAX_REPEATS], base[NR_SETUPS] = { 0 };
	int reps = bench_repeats(), s;
	struct bench_stat st;
	char size[32];

	pg = sysconf(_SC_PAGESIZE);
	if (access("/sys/devices/system/node/node1", F_OK))
		return fprintf(stderr, "bench-pvmmap-rmap: needs two NUMA nodes\n"), 77;
	if (bench_pvmmap(0, NULL, 0, NULL, 0) < 0 && errno == ENOSYS)
		return fprintf(stderr, "bench-pvmmap-rmap: no process_vm_mmap()\n"), 77;
	if (argc > 1) {
		ns = calloc(argc - 1, sizeof(*ns));
		for (nn = 0; nn < argc - 1; nn++)
			ns[nn] = atol(argv[nn + 1]);
	}
	bench_header();
	for (i = 0; i < nn; i++) {
		for (s = 0; s < NR_SETUPS; s++) {
			/* Each setup in a child: the copies go with it. */
			int p[2];
			pid_t c;

			if (pipe(p))
				return 1;
			c = fork();
			if (!c) {
				close(p[0]);
				if (run(s, ns[i], v, reps))
					_exit(1);
				if (write(p[1], v, reps * sizeof(double)) < 0)
					_exit(1);
				_exit(0);
			}
			close(p[1]);
			if (read(p[0], v, reps * sizeof(double)) !=
			    (ssize_t)(reps * sizeof(double))) {
				close(p[0]);
				waitpid(c, NULL, 0);
				printf("pvmmap-rmap: %s, N=%ld: no figure\n",
				       setup_name[s], ns[i]);
				continue;
			}
			close(p[0]);
			waitpid(c, NULL, 0);
			st = bench_summarize(v, reps);
			snprintf(size, sizeof(size), "N=%ld", ns[i]);
			bench_row("pvmmap-rmap", setup_name[s], size, st, "ms",
				  "migrate 64 pages");
			if (i == 0)
				base[s] = st.median;
			else if (i == nn - 1)
				printf("pvmmap-rmap: %s: %.3f ms at N=%ld, %.3f ms at N=%ld, %.2f us more per added one\n",
				       setup_name[s], base[s], ns[0], st.median,
				       ns[i], (st.median - base[s]) * 1e3 /
				       (ns[i] - ns[0] ? ns[i] - ns[0] : 1));
		}
	}
	return 0;
}
