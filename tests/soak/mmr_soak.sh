#!/bin/sh
# mmr_soak: a bounded soak of the mm under stressors and fuzzers, KTAP out.
# Run by the kselftest runner in the debug guest (scripts/mmr-kselftest,
# name "soak"; scripts/mmr-soak for a chosen duration).  At the same time:
#   - stress-ng's memory stressors, bounded by time, with KSM on for all
#     of them through the series' own /proc/<pid>/madvise ("merge" on the
#     stress-ng parent: every stressor it forks inherits it; Debian 12's
#     stress-ng 0.15 has no --ksm);
#   - the series' own fuzzer mmr_fuzz (when the tree has it), seeded;
#   - compaction every few seconds;
# then trinity over the mm syscalls as nobody (-X), fixed seed, bounded
# count.  A stressor or fuzzer that fails, a broken fuzzer invariant, or a
# splat in the console (judged by the host) fails the run.
# Environment: MMR_SOAK_SECONDS (default 150), MMR_SOAK_SEED (default
# 20261204), MMR_SOAK_TRINITY_OPS (default 5000).
secs=${MMR_SOAK_SECONDS:-150}
seed=${MMR_SOAK_SEED:-20261204}
ops=${MMR_SOAK_TRINITY_OPS:-5000}
here=$(cd "$(dirname "$0")" && pwd)
soak=$here/soak
run() { "$soak/ld-linux-x86-64.so.2" --library-path "$soak/lib" "$@"; }
n=0 bad=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; bad=$((bad + 1)); fi
}
echo "TAP version 13"
echo "1..4"
echo "# soak: ${secs}s, seed $seed, trinity $ops syscalls"
# A hung task report also dumps every CPU's stack: shows what the lock
# holder is doing when it is running, not sleeping.
echo 1 >/proc/sys/kernel/hung_task_all_cpu_backtrace 2>/dev/null || :
# ... and once one is reported, every task's stack and state (sysrq t),
# the running ones included: the holder of the lock others wait for.
( while sleep 5; do
	dmesg 2>/dev/null | grep -q 'blocked for more than' || continue
	echo t >/proc/sysrq-trigger 2>/dev/null; break
done ) &
hpid=$!
echo 1 >/sys/kernel/mm/ksm/run
echo 1000 >/sys/kernel/mm/ksm/pages_to_scan
echo 20 >/sys/kernel/mm/ksm/sleep_millisecs
log=/tmp/mmr-soak
mkdir -p $log

end=$(( $(date +%s) + secs ))
( while [ "$(date +%s)" -lt "$end" ]; do echo 1 >/proc/sys/vm/compact_memory; sleep 5; done ) &
cpid=$!
run "$soak/stress-ng" --seed "$seed" --timeout "${secs}s" --metrics-brief \
	--madvise 1 --mmap 1 --mremap 1 --rmap 1 --pagemove 1 --pageswap 1 \
	--vm-rw 1 --userfaultfd 1 --numa 1 >$log/stress-ng.log 2>&1 &
spid=$!
merged=no
for i in 1 2 3 4 5 6 7 8 9 10; do
	echo merge 2>/dev/null >/proc/$spid/madvise && { merged=yes; break; }
	sleep 0.2
done
echo "# KSM merge-any on stress-ng (pid $spid) through /proc/$spid/madvise: $merged"
fpid=""
if [ -x "$here/mmr_fuzz" ]; then
	"$here/mmr_fuzz" -s "$seed" -t "$secs" >$log/fuzz.log 2>&1 &
	fpid=$!
fi
wait $spid
src=$?
if [ "$src" = 0 ]; then
	grep -E 'metrc:|successful run' $log/stress-ng.log | sed 's/^stress-ng: //; s/^/# stress-ng: /' | tail -20
else
	tail -20 $log/stress-ng.log | sed 's/^/# stress-ng: /'
fi
result $src "stress-ng madvise mmap mremap rmap pagemove pageswap vm-rw userfaultfd numa + KSM, ${secs}s"
if [ -n "$fpid" ]; then
	wait $fpid
	frc=$?
	sed 's/^/# fuzz: /' $log/fuzz.log | tail -40
	result $frc "mmr_fuzz -s $seed -t $secs"
else
	echo "ok 2 mmr_fuzz # SKIP not in this tree"
	n=2
fi
wait $cpid
kill $hpid 2>/dev/null || :

# trinity refuses root without --dropprivs: -X runs its children as nobody.
cd /tmp
timeout $((secs + 300)) "$soak/ld-linux-x86-64.so.2" --library-path "$soak/lib" "$soak/trinity" \
	-X -q -l off --stats --disable-fds=sockets,perf,drm -s "$seed" -N "$ops" -C 2 \
	-c madvise -c process_madvise -c mmap -c munmap -c mremap -c mprotect \
	-c mlock -c msync -c mincore -c process_vm_readv -c process_vm_writev \
	-c migrate_pages -c move_pages -c mbind >$log/trinity.log 2>&1
trc=$?
if [ "$trc" = 0 ]; then
	grep -aE 'Ran [0-9]+ syscalls|Successes|Failures|syscalls per second|Bailing|ERROR' $log/trinity.log | tail -6
else
	tail -20 $log/trinity.log
fi | sed 's/^/# trinity: /'
result $trc "trinity -X -s $seed -N $ops over 14 mm syscalls"
ksm=$(cat /sys/kernel/mm/ksm/full_scans 2>/dev/null)
echo "# ksm full_scans $ksm, pages_sharing $(cat /sys/kernel/mm/ksm/pages_sharing)"
grep -E '^(pgmigrate_success|compact_success|pswpout|pswpin|thp_split_pmd|ksm_swpin_copy) ' /proc/vmstat | sed 's/^/# vmstat: /'
[ "$(cat /proc/sys/kernel/tainted)" = 0 ]
result $? "kernel not tainted after the soak ($(cat /proc/sys/kernel/tainted))"
echo 0 >/sys/kernel/mm/ksm/run
exit $((bad > 0))
