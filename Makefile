# mm-remote: the two user commands and the developer loop.
# Every target is a thin wrapper over scripts/mmr-*; each has --help.

.PHONY: all demo demo-arm64 test test-stock soak bench tree build build-arm64 export check-series cross-build help

all: demo

## make            build the patched base kernel, boot it, run the demo
demo:
	@scripts/mmr-demo

## make demo-arm64 the demo on the arm64 guest (scripts/mmr-demo --arch arm64)
demo-arm64:
	@scripts/mmr-demo --arch arm64

## make test       the test suite on the x86_64 then the arm64 debug kernel
##                 (TEST_ARCH=x86_64 or arm64: one only; INJECT_FAIL=1 adds a failing test)
test:
	@MMR_INJECT_FAIL=$(INJECT_FAIL) scripts/mmr-test $(if $(TEST_ARCH),--arch $(TEST_ARCH))

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

## make build      build both x86_64 guest kernels (base and debug) of build/linux
build: tree
	scripts/mmr-build base
	scripts/mmr-build debug

## make build-arm64  build both arm64 guest kernels (base and debug)
build-arm64: tree
	scripts/mmr-build --arch arm64 base
	scripts/mmr-build --arch arm64 debug

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
