// SPDX-License-Identifier: GPL-2.0
/*
 * ksm_autod_test: tools/ksm-autod end to end, as the test command runs it.
 *
 * Two children named "mmr-ksmtgt" fill 8 MiB each with the same page-distinct
 * content.  "ksm-autod --comm mmr-ksmtgt --once --start-ksmd" (from the
 * directory of this program) must merge both: ksm_merging_pages of each
 * reaches most of its pages and /sys/kernel/mm/ksm/pages_sharing grows; then
 * "--unmerge" must bring both back to 0 with the data intact.  A process of
 * another name must be left alone.  KTAP out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIZE	(8UL << 20)
#define PAGES	(SIZE / 4096)

static int tests, failed;

static void result(int ok, const char *what)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++tests, what);
	if (!ok)
		failed++;
}

static long read_long(const char *path, const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!key) {
			v = atol(line);
			break;
		}
		if (!strncmp(line, key, strlen(key))) {
			v = atol(line + strlen(key));
			break;
		}
	}
	fclose(f);
	return v;
}

static long merging(pid_t pid)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/%d/ksm_merging_pages", pid);
	return read_long(p, NULL);
}

static void fill(char *m)
{
	for (unsigned long i = 0; i < PAGES; i++)
		memset(m + i * 4096, (int)(i % 251) + 1, 4096);
}

static pid_t target(const char *name, int ready)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_NAME, name);
	char *m = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		_exit(1);
	fill(m);
	if (write(ready, "x", 1) != 1)
		_exit(1);
	/* Wait for SIGUSR1, then check the data and report it in the status. */
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int sig;

	sigwait(&set, &sig);
	char *want = malloc(SIZE);

	fill(want);
	_exit(memcmp(m, want, SIZE) ? 3 : 0);
}

static int run(const char *dir, const char *args)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "%s/ksm-autod %s", dir, args);
	printf("# %s\n", cmd);
	fflush(stdout);
	return system(cmd);
}

static int wait_for(pid_t *p, int n, int merged, int secs)
{
	for (int t = 0; t < secs * 10; t++) {
		int ok = 1;

		for (int i = 0; i < n; i++) {
			long m = merging(p[i]);

			if (merged ? m < (long)PAGES * 9 / 10 : m != 0)
				ok = 0;
		}
		if (ok)
			return 1;
		usleep(100000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	char dir[256];
	int pfd[2], status, rc;
	pid_t p[3];
	char c;

	snprintf(dir, sizeof(dir), "%s", argv[0]);
	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0';
	if (!dir[0])
		strcpy(dir, ".");
	printf("TAP version 13\n1..5\n");
	if (access("/sys/kernel/mm/ksm/run", W_OK)) {
		printf("Bail out! no KSM in this kernel\n");
		return 1;
	}
	if (pipe(pfd))
		return 1;
	p[0] = target("mmr-ksmtgt", pfd[1]);
	p[1] = target("mmr-ksmtgt", pfd[1]);
	p[2] = target("mmr-other", pfd[1]);
	for (int i = 0; i < 3; i++)
		if (read(pfd[0], &c, 1) != 1)
			return 1;
	/* Scan fast so the test is short even under TCG. */
	FILE *f = fopen("/sys/kernel/mm/ksm/pages_to_scan", "w");

	if (f) {
		fputs("4000", f);
		fclose(f);
	}
	f = fopen("/sys/kernel/mm/ksm/sleep_millisecs", "w");
	if (f) {
		fputs("10", f);
		fclose(f);
	}
	long before = read_long("/sys/kernel/mm/ksm/pages_sharing", NULL);

	rc = run(dir, "--comm mmr-ksmtgt --once --start-ksmd --verbose");
	result(rc == 0, "ksm-autod --once exits 0");
	result(wait_for(p, 2, 1, 60), "both matching processes merged (ksm_merging_pages >= 90%)");
	long after = read_long("/sys/kernel/mm/ksm/pages_sharing", NULL);

	printf("# pages_sharing %ld -> %ld; merging %ld, %ld; other %ld\n",
	       before, after, merging(p[0]), merging(p[1]), merging(p[2]));
	result(merging(p[2]) == 0 && after - before >= (long)PAGES * 9 / 10,
	       "saving reported by KSM; the process of another name untouched");
	rc = run(dir, "--comm mmr-ksmtgt --once --unmerge");
	result(rc == 0 && wait_for(p, 2, 0, 30), "--unmerge brings ksm_merging_pages back to 0");
	int intact = 1;

	for (int i = 0; i < 3; i++) {
		kill(p[i], SIGUSR1);
		if (waitpid(p[i], &status, 0) != p[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			intact = 0;
	}
	result(intact, "every process's data intact after merge and unmerge");
	printf("# Totals: pass:%d fail:%d\n", tests - failed, failed);
	return failed ? 1 : 0;
}
