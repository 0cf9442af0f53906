# SPDX-License-Identifier: GPL-2.0
# perf_counter: the kernel subsystem and the perf tool.
#
#   make             install missing dependencies, build tools/perf/perf
#   make demo        build, then run perf on the bundled workload
#   make check       everything: build, perf test (unit, end-to-end and
#                    differential tests against Linux perf), build variants
#   make check-fast  the quick subset for iteration
#   make asan        perf with ASan and UBSan in tools/perf/build/asan
#   make fuzz        build the fuzz targets and run each FUZZ_SECONDS
#   make bench       benchmarks against Linux perf (bench/)

PERF := tools/perf/perf

all: deps perf

deps:
	@scripts/install-deps

# Every build needs the packages first, also under make -j.
perf perf-no-tests asan fuzz-build: deps

perf:
	@$(MAKE) --no-print-directory -C tools/perf

perf-no-tests:
	@$(MAKE) --no-print-directory -C tools/perf NO_PERF_TESTS=1 OUT=build/no-tests

asan:
	@$(MAKE) --no-print-directory -C tools/perf SANITIZE=1 OUT=build/asan

fuzz-build:
	@$(MAKE) --no-print-directory -C tools/perf fuzz OUT=build/fuzz

FUZZ_SECONDS ?= 60

fuzz: all fuzz-build
	@scripts/fuzz-run $(FUZZ_SECONDS)

demo: all
	@scripts/demo

check: all perf-no-tests asan fuzz-build
	@scripts/check full

check-fast: perf
	@scripts/check fast

bench: all
	@scripts/bench

clean:
	@$(MAKE) --no-print-directory -C tools/perf clean
	rm -rf build/no-tests build/fuzz tools/perf/build/asan tools/perf/build/fuzz

.PHONY: all deps perf perf-no-tests asan fuzz-build fuzz demo check check-fast bench clean

# The kernel half.  make kernel: the test kernel (build/kbuild); make
# vmcheck: boot it in QEMU, run KUnit, the selftests and perf test; make
# series: export and check the patch series (build/series).  DEBUG=1 picks
# the debug variant (kernel/configs/debug.config, build/kbuild-debug);
# STRESS=1 makes vmcheck's two stress tests run 300 s each instead of 5;
# FUZZ=1 makes its system call fuzzer run 300 s as root and 300 s as
# nobody instead of 10 (with DEBUG=1: KASAN, lockdep and the rest watch).
KERNEL_VARIANT := $(if $(filter-out 0,$(DEBUG)),--debug)

kernel: deps
	@scripts/kernel-build $(KERNEL_VARIANT)

vmcheck: deps perf
	@scripts/kernel-build --quiet $(KERNEL_VARIANT)
	@scripts/vm-run $(KERNEL_VARIANT)

series: deps
	@scripts/series

.PHONY: kernel vmcheck series
