/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmr-demo.h - helpers the hint scenarios share: reading a process's
 * /proc/<pid>/status and /proc/meminfo figures, and checking data.
 */
#ifndef MMR_DEMO_H
#define MMR_DEMO_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* A "Key:   N kB" line of FILE, in kB; -1 when absent. */
static inline long mmr_kb_in(const char *file, const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long v = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = atol(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

static inline long status_kb(pid_t pid, const char *key)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	return mmr_kb_in(path, key);
}

static inline long meminfo_kb(const char *key)
{
	return mmr_kb_in("/proc/meminfo", key);
}

/* FNV-1a over 64-bit words: every byte of the range counts. */
static inline uint64_t checksum(const char *p, size_t len)
{
	uint64_t h = 1469598103934665603ULL, v;
	size_t i;

	for (i = 0; i < len; i += sizeof(v)) {
		memcpy(&v, p + i, sizeof(v));
		h = (h ^ v) * 1099511628211ULL;
	}
	return h;
}

#endif
