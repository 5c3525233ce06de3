# mm-remote: the two user commands and the developer loop.
# Every target is a thin wrapper over scripts/mmr-*; each has --help.

.PHONY: all demo test test-stock soak bench tree build export check-series cross-build help

all: demo

## make            build the patched base kernel, boot it, run the demo
demo:
	@scripts/mmr-demo

## make test       run the test suite on the debug kernel (INJECT_FAIL=1 adds a failing test)
test:
	@MMR_INJECT_FAIL=$(INJECT_FAIL) scripts/mmr-test

## make test-stock the same suite on the unpatched source: must fail, naming what is missing
test-stock:
	@scripts/mmr-test --stock

## make soak       the soak alone on the debug kernel (DURATION=30m, SEED=N)
soak:
	scripts/mmr-soak --duration $(or $(DURATION),30m) $(if $(SEED),--seed $(SEED))

## make bench      run the benchmarks in one boot of the base kernel
bench:
	scripts/mmr-bench

## make tree       build/linux = pinned source + patches/ as git commits
tree:
	scripts/mmr-tree

## make build      build both guest kernels (base and debug) of build/linux
build: tree
	scripts/mmr-build base
	scripts/mmr-build debug

## make export     write build/linux's commits back to patches/
export:
	scripts/mmr-export

## make check-series  series applies with fuzz 0 and is checkpatch clean
check-series:
	scripts/mmr-check-series

## make cross-build  W=1 vmlinux for x86_64 i386 arm64 arm riscv64 powerpc64le s390x mips (EACH_PATCH=1: every patch on x86_64, arm64)
cross-build:
	scripts/mmr-crossbuild $(if $(EACH_PATCH),--each-patch)

help:
	@grep '^## ' Makefile | sed 's/^## //'
