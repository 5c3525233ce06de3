// SPDX-License-Identifier: GPL-2.0
/*
 * ksm-autod: the "small userspace helper daemon that will do auto-KSM job"
 * of the 2019 /proc/<pid>/madvise posting.
 *
 * Finds processes by name (comm) or by cgroup (v2 path, a prefix match on
 * whole components), writes "merge" (or, with --unmerge, "unmerge") into
 * their /proc/<pid>/madvise, and reports what KSM saves: per process from
 * /proc/<pid>/ksm_stat, in total from /sys/kernel/mm/ksm.
 *
 *   ksm-autod --comm node --comm firefox --once
 *   ksm-autod --cgroup /system.slice/containers --interval 10
 *
 * Build: gcc -static -O2 -Wall -o ksm-autod ksm-autod.c
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KSM_SYSFS	"/sys/kernel/mm/ksm/"
#define MAX_PATTERNS	64

static const char *comms[MAX_PATTERNS], *cgroups[MAX_PATTERNS];
static int nr_comms, nr_cgroups;
static bool unmerge, verbose;
static long pagesize;
static volatile sig_atomic_t stop;

/* Processes already handled: pid plus start time, so a reused pid is new. */
struct seen {
	int pid;
	unsigned long long start;
	bool alive;
};
static struct seen *seen;
static size_t nr_seen, max_seen;

static void on_signal(int sig)
{
	stop = 1;
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

static long long read_ll(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

/* Start time (field 22 of /proc/<pid>/stat), 0 when unreadable. */
static unsigned long long start_time(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
	if (!p)
		return 0;
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

static bool comm_matches(int pid, char *comm, size_t len)
{
	char path[64];
	int i, n;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	n = read_file(path, comm, len);
	if (n <= 0)
		return false;
	if (comm[n - 1] == '\n')
		comm[n - 1] = 0;
	for (i = 0; i < nr_comms; i++)
		if (!fnmatch(comms[i], comm, 0))
			return true;
	return false;
}

/* cgroup v2 path of @pid ("0::/a/b"), matched as a prefix of components. */
static bool cgroup_matches(int pid)
{
	char path[64], buf[4096], *line, *save = NULL;
	int i;

	if (!nr_cgroups)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *cg;

		if (strncmp(line, "0::", 3))
			continue;
		cg = line + 3;
		for (i = 0; i < nr_cgroups; i++) {
			size_t l = strlen(cgroups[i]);

			while (l > 1 && cgroups[i][l - 1] == '/')
				l--;
			if (!strncmp(cg, cgroups[i], l) &&
			    (cg[l] == 0 || cg[l] == '/' || l == 1))
				return true;
		}
	}
	return false;
}

static struct seen *find_seen(int pid, unsigned long long start)
{
	size_t i;

	for (i = 0; i < nr_seen; i++)
		if (seen[i].pid == pid && seen[i].start == start)
			return &seen[i];
	return NULL;
}

static void add_seen(int pid, unsigned long long start)
{
	if (nr_seen == max_seen) {
		size_t n = max_seen ? 2 * max_seen : 64;
		struct seen *s = realloc(seen, n * sizeof(*s));

		if (!s)
			return;	/* We will just write "merge" again next time. */
		seen = s;
		max_seen = n;
	}
	seen[nr_seen].pid = pid;
	seen[nr_seen].start = start;
	seen[nr_seen].alive = true;
	nr_seen++;
}

/* Forget processes that are gone. */
static void prune_seen(void)
{
	size_t i, j = 0;

	for (i = 0; i < nr_seen; i++)
		if (seen[i].alive)
			seen[j++] = seen[i];
	nr_seen = j;
	for (i = 0; i < nr_seen; i++)
		seen[i].alive = false;
}

/* 0, or -errno of open() or write(). */
static int write_madvise(int pid, const char *word)
{
	char path[64];
	int fd, err = 0;
	size_t len = strlen(word);

	snprintf(path, sizeof(path), "/proc/%d/madvise", pid);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, word, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

struct ksm_stat {
	long long rmap_items, zero_pages, merging_pages, profit;
};

static bool read_ksm_stat(int pid, struct ksm_stat *st)
{
	char path[64], buf[512], *p;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "/proc/%d/ksm_stat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return false;
	p = strstr(buf, "ksm_rmap_items ");
	if (p)
		st->rmap_items = strtoll(p + 15, NULL, 10);
	p = strstr(buf, "ksm_zero_pages ");
	if (p)
		st->zero_pages = strtoll(p + 15, NULL, 10);
	p = strstr(buf, "ksm_merging_pages ");
	if (p)
		st->merging_pages = strtoll(p + 18, NULL, 10);
	p = strstr(buf, "ksm_process_profit ");
	if (p)
		st->profit = strtoll(p + 19, NULL, 10);
	return true;
}

static double mib(long long pages)
{
	return (double)pages * pagesize / (1024.0 * 1024.0);
}

/* One pass over /proc: act on new matches, report on every match. */
static int scan(void)
{
	const char *word = unmerge ? "unmerge" : "merge";
	long long sharing, shared, profit;
	int matched = 0, acted = 0, failed = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d) {
		perror("/proc");
		return -1;
	}
	while ((de = readdir(d))) {
		char comm[64] = "";
		unsigned long long start;
		struct ksm_stat st;
		struct seen *s;
		int pid, err;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = atoi(de->d_name);
		if (pid == getpid())
			continue;
		if (!comm_matches(pid, comm, sizeof(comm)) &&
		    !cgroup_matches(pid))
			continue;
		start = start_time(pid);
		if (!start && !comm[0])
			continue;	/* gone meanwhile */
		matched++;
		s = find_seen(pid, start);
		if (s) {
			s->alive = true;
		} else {
			err = write_madvise(pid, word);
			if (err == -ESRCH)
				continue;	/* exited, or a kernel thread */
			if (err) {
				fprintf(stderr, "ksm-autod: %s %d (%s): %s\n",
					word, pid, comm, strerror(-err));
				failed++;
				continue;
			}
			add_seen(pid, start);
			acted++;
			printf("%s: pid %d (%s)\n", word, pid, comm);
		}
		if (verbose && read_ksm_stat(pid, &st))
			printf("  pid %-7d %-16s merging %8.1f MiB  profit %8.1f MiB  rmap_items %lld\n",
			       pid, comm, mib(st.merging_pages),
			       (double)st.profit / (1024.0 * 1024.0),
			       st.rmap_items);
	}
	closedir(d);
	prune_seen();

	shared = read_ll(KSM_SYSFS "pages_shared");
	sharing = read_ll(KSM_SYSFS "pages_sharing");
	profit = read_ll(KSM_SYSFS "general_profit");
	printf("ksm-autod: %d matching, %d new, %d failed; KSM: shared %.1f MiB, saved %.1f MiB",
	       matched, acted, failed, mib(shared), mib(sharing));
	if (profit >= 0)
		printf(", general_profit %.1f MiB",
		       (double)profit / (1024.0 * 1024.0));
	printf("\n");
	fflush(stdout);
	return failed;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: ksm-autod [--comm NAME]... [--cgroup PATH]... [--once | --interval SEC]\n"
"                 [--unmerge] [--start-ksmd] [--verbose]\n"
"  Enables KSM (echo merge > /proc/<pid>/madvise) for every process whose\n"
"  comm matches NAME (a shell pattern) or whose cgroup v2 path is PATH or\n"
"  below it, once or every SEC seconds (new processes only), and reports\n"
"  the memory KSM saves.  --unmerge undoes it for the matching processes.\n"
"  --start-ksmd writes 1 to /sys/kernel/mm/ksm/run if ksmd is stopped.\n"
"  Needs ptrace-attach rights over the targets (root, or the same user).\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "comm", required_argument, NULL, 'c' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "once", no_argument, NULL, '1' },
		{ "interval", required_argument, NULL, 'i' },
		{ "unmerge", no_argument, NULL, 'u' },
		{ "start-ksmd", no_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool once = false, start_ksmd = false;
	int opt, interval = 0, ret = 0;
	struct sigaction sa = { .sa_handler = on_signal };

	pagesize = sysconf(_SC_PAGESIZE);
	while ((opt = getopt_long(argc, argv, "c:g:1i:usvh", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
		case 'g':
			if ((opt == 'c' ? nr_comms : nr_cgroups) == MAX_PATTERNS) {
				fprintf(stderr, "ksm-autod: too many patterns\n");
				return 2;
			}
			if (opt == 'c')
				comms[nr_comms++] = optarg;
			else
				cgroups[nr_cgroups++] = optarg;
			break;
		case '1':
			once = true;
			break;
		case 'i':
			interval = atoi(optarg);
			break;
		case 'u':
			unmerge = true;
			break;
		case 's':
			start_ksmd = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || (!nr_comms && !nr_cgroups) ||
	    once == (interval > 0)) {
		usage(stderr);
		return 2;
	}
	if (access("/proc/self/madvise", F_OK)) {
		printf("ksm-autod: /proc/<pid>/madvise not supported by this kernel\n");
		return 77;
	}
	if (read_ll(KSM_SYSFS "run") == 0 && !unmerge) {
		if (start_ksmd) {
			int fd = open(KSM_SYSFS "run", O_WRONLY);

			if (fd < 0 || write(fd, "1", 1) != 1)
				perror("ksm-autod: starting ksmd");
			if (fd >= 0)
				close(fd);
		} else {
			fprintf(stderr, "ksm-autod: ksmd is stopped (/sys/kernel/mm/ksm/run = 0): nothing will be merged; see --start-ksmd\n");
		}
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	do {
		int failed = scan();

		if (failed < 0 || (once && failed)) {
			ret = 1;
			break;
		}
		if (once)
			break;
		sleep(interval);
	} while (!stop);
	free(seen);
	return ret;
}
