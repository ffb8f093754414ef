# cuzk top-level Makefile: the README's commands. CMake does the real work underneath.
#   make            build everything into build/ (CLI at build/cuzk); CPU backend, plus CUDA if nvcc is found
#   make demo       install missing packages, build, prove + verify the bundled BLS12-381 circuit
#   make test       install missing packages (GMP, pinned snarkjs), build, run all tests (ctest), summary last
#   make test-asan  the host tests under AddressSanitizer + UndefinedBehaviorSanitizer
#   make test-gpu   build for sm_90a and run the GPU tests, summary table last; without a GPU: one line, exit 0
#   make fuzz       install clang if missing, then libFuzzer + ASan/UBSan (tools/fuzz/run.sh) over every file
#                   parser, the PoSt vanilla proofs and cuzkd's request checks for FUZZ_SECONDS in all (default 60)
#   make bench      benchmarks (cuzk bench ...), see bench/RESULTS.md
#   make install    build, then install into PREFIX (default /usr/local): lib/libcuzk.so, include/cuzk,
#                   lib/pkgconfig/cuzk.pc, lib/cmake/cuzk, bin/cuzk, bin/cuzk-bench, bin/cuzkd (when built)
BUILD      ?= build
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
PREFIX     ?= /usr/local

.PHONY: all deps deps-test deps-fuzz demo test test-asan test-gpu fuzz bench install clean

all: deps
	@cmake -S . -B $(BUILD) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

deps:
	@tools/install-deps.sh

deps-test:
	@tools/install-deps.sh --test

deps-fuzz:
	@tools/install-deps.sh --fuzz

demo: all
	@tools/demo.sh $(BUILD)/cuzk

test: deps-test all
	@tools/test-summary.sh $(BUILD)

test-asan: deps-test
	@cmake -S . -B $(BUILD)-asan -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD)-asan -j$(JOBS)
	@CUZK_ASAN=1 tools/test-summary.sh $(BUILD)-asan

test-gpu:
	@tools/test-gpu.sh

fuzz: deps-fuzz
	@tools/fuzz/run.sh

bench: all
	@$(BUILD)/cuzk bench field && $(BUILD)/cuzk bench ntt && $(BUILD)/cuzk bench msm

install: all
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-gpu build-fuzz
