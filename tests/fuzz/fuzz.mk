# libFuzzer targets over the policy code; included by the top Makefile:
#
#   include tests/fuzz/fuzz.mk
#
# It uses the top Makefile's B, SRC, LIB_SRCS and INC_lib, and defines only FUZZ_*
# variables and fuzz* targets:
#
#   make fuzz-build      build/fuzz/fuzz_{config,load,explain}, the core
#                        sources rebuilt with clang and
#                        -fsanitize=fuzzer-no-link,address,undefined
#   make fuzz            fuzz each target for FUZZ_SECONDS seconds (PER
#                        TARGET: three targets, so 3 x FUZZ_SECONDS in all,
#                        or less with make -j); new inputs are kept in
#                        build/fuzz/corpus/TARGET/, crashes written to
#                        build/fuzz/artifacts/TARGET-*; fails on any crash,
#                        leak, sanitizer report, broken invariant or timeout
#   make fuzz-regress    replay tests/fuzz/regressions/* and every seed
#                        through every target once, without fuzzing (for
#                        make check; a second or so)
#
# FUZZ_VERBOSE=1 in the environment makes the targets print the
# diagnostics of each input, e.g.
#   FUZZ_VERBOSE=1 build/fuzz/fuzz_load tests/fuzz/seeds/load/*
#
# Needs clang and libFuzzer (Debian 12: clang-14 and libclang-rt-14-dev).
# Run as root: fuzz_load writes root-owned policy files under $TMPDIR.
# A crash found by `make fuzz` belongs in tests/fuzz/regressions/ once
# fixed, so that fuzz-regress keeps it fixed.

# Wherever it is included, this file does not change the default goal.
FUZZ_SAVED_GOAL := $(.DEFAULT_GOAL)

FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_MAX_LEN  ?= 65536
FUZZ_TIMEOUT  ?= 25
# Extra libFuzzer flags, e.g. FUZZ_FLAGS=-jobs=2 or -only_ascii=1.
FUZZ_FLAGS    ?=

FUZZ_DIR      := tests/fuzz
FUZZ_B        := $(B)/fuzz
FUZZ_TARGETS  := fuzz_config fuzz_load fuzz_explain
FUZZ_BINS     := $(FUZZ_TARGETS:%=$(FUZZ_B)/%)
FUZZ_CORE_OBJS := $(patsubst $(SRC)/lib/%.c,$(FUZZ_B)/%.o,$(LIB_SRCS))
FUZZ_DICT     := $(FUZZ_DIR)/policy.dict

FUZZ_SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all \
		 -fno-omit-frame-pointer
FUZZ_CFLAGS    = -std=gnu11 -D_GNU_SOURCE -g -O1 $(FUZZ_SAN) -I$(B) \
		 $(shell pkg-config --cflags libconfig libcap 2>/dev/null)
FUZZ_LIBS      = $(shell pkg-config --libs libconfig libcap 2>/dev/null || \
		   echo -lconfig -lcap)
# lsan.supp: a leak in libconfig 1.5 itself (see the file).
FUZZ_LSAN     := suppressions=$(FUZZ_DIR)/lsan.supp:print_suppressions=0
FUZZ_ENV      := UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		 ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 \
		 LSAN_OPTIONS=$(FUZZ_LSAN)

# Seeds: plain policies suit every target; the load and explain seeds use
# their target's "#%" directives (comments to the others).
FUZZ_SEEDS_fuzz_config  := $(FUZZ_DIR)/seeds/policy $(FUZZ_DIR)/seeds/load
FUZZ_SEEDS_fuzz_load    := $(FUZZ_DIR)/seeds/load $(FUZZ_DIR)/seeds/policy
FUZZ_SEEDS_fuzz_explain := $(FUZZ_DIR)/seeds/explain $(FUZZ_DIR)/seeds/policy
FUZZ_REPLAY    = $(filter-out %/README %/README.md, \
		   $(wildcard $(FUZZ_DIR)/regressions/* $(FUZZ_DIR)/seeds/*/*))

fuzz-build: $(FUZZ_BINS)

$(FUZZ_B):
	mkdir -p $(FUZZ_B)

# The core as the fuzzers see it: instrumented for coverage and the
# sanitizers.  Warnings stay warnings here (gcc -Werror guards the real
# build); the fuzz targets themselves are -Werror.
$(FUZZ_CORE_OBJS): $(FUZZ_B)/%.o: $(SRC)/lib/%.c $(wildcard $(SRC)/lib/*.h) $(B)/parser-id.h | $(FUZZ_B)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(INC_lib) -Wall -Wextra -Wno-unused-parameter \
		-fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BINS): $(FUZZ_B)/%: $(FUZZ_DIR)/%.c $(FUZZ_DIR)/fuzz_common.h \
		$(FUZZ_CORE_OBJS) | $(FUZZ_B)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Wall -Wextra -Werror $(INC_lib) -iquote tests/lib \
		-fsanitize=fuzzer -o $@ $< $(FUZZ_CORE_OBJS) $(FUZZ_LIBS)

fuzz: $(FUZZ_TARGETS:%=fuzz-run-%)

$(FUZZ_TARGETS:%=fuzz-run-%): fuzz-run-%: $(FUZZ_B)/%
	mkdir -p $(FUZZ_B)/corpus/$* $(FUZZ_B)/artifacts
	$(FUZZ_ENV) $(FUZZ_B)/$* -max_total_time=$(FUZZ_SECONDS) \
		-max_len=$(FUZZ_MAX_LEN) -timeout=$(FUZZ_TIMEOUT) \
		-dict=$(FUZZ_DICT) -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_B)/artifacts/$*- $(FUZZ_FLAGS) \
		$(FUZZ_B)/corpus/$* $(FUZZ_SEEDS_$*)

fuzz-regress: $(FUZZ_TARGETS:%=fuzz-regress-%)

$(FUZZ_TARGETS:%=fuzz-regress-%): fuzz-regress-%: $(FUZZ_B)/%
	mkdir -p $(FUZZ_B)/artifacts
	$(FUZZ_ENV) $(FUZZ_B)/$* -timeout=$(FUZZ_TIMEOUT) \
		-artifact_prefix=$(FUZZ_B)/artifacts/$*- $(FUZZ_REPLAY)

.PHONY: fuzz-build fuzz fuzz-regress $(FUZZ_TARGETS:%=fuzz-run-%) \
	$(FUZZ_TARGETS:%=fuzz-regress-%)

.DEFAULT_GOAL := $(FUZZ_SAVED_GOAL)
