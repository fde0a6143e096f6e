# libFuzzer targets over the policy code and over every parser that
# reads an admin's file; included by the top Makefile:
#
#   include tests/fuzz/fuzz.mk
#
# It uses the top Makefile's B, SRC, *_SRCS and INC_*, and defines only
# FUZZ_* variables and fuzz* targets.  The targets:
#
#   fuzz_config    the policy validator and resolver (lib/config.c)
#   fuzz_load      the policy loader, files and cache (lib/load.c)
#   fuzz_explain   the decision (lib/policy.c)
#   fuzz_sudoers   sudoers, its includes and sudo.conf (audit/sudoers.c,
#                  sudolex.c, sudoconf.c)
#   fuzz_pamstack  PAM stacks from /etc/pam.d (lint/pamstack.c, pamread.c)
#   fuzz_sshdconf  sshd_config, Include and Match (lint/sshdconf.c)
#   fuzz_nsswitch  nsswitch.conf (lib/nsswitch.c)
#   fuzz_groupline /etc/group lines as the files-first pass reads them,
#                  against glibc's fgetgrent_r (lib/nss.c)
#
# Each file-reading target (sudoers, pamstack, sshdconf) writes its input
# as files in a throwaway root and runs the parser chroot()ed in it
# (fuzz_root.h says how an input becomes files); each target's source
# says what it checks.  Seeds: tests/fuzz/seeds/TARGET-ish/ (below).
#
#   make fuzz-build      build/fuzz/fuzz_*, the sources they use rebuilt
#                        with clang and
#                        -fsanitize=fuzzer-no-link,address,undefined
#                        (lib/ as objects; lint/ and audit/ as archives,
#                        so that a target links only what it calls)
#   make fuzz            fuzz each target for FUZZ_SECONDS seconds (PER
#                        TARGET: eight targets, so 8 x FUZZ_SECONDS in
#                        all, or less with make -j); new inputs are kept in
#                        build/fuzz/corpus/TARGET/, crashes written to
#                        build/fuzz/artifacts/TARGET-*; fails on any crash,
#                        leak, sanitizer report, broken invariant or timeout
#   make fuzz-run-TARGET one target alone, e.g.
#                        make fuzz-run-fuzz_sudoers FUZZ_SECONDS=300
#   make fuzz-regress    replay tests/fuzz/regressions/* and every seed
#                        through every target once, without fuzzing (for
#                        make check; a few seconds)
#
# FUZZ_VERBOSE=1 in the environment makes the targets print the
# diagnostics of each input, e.g.
#   FUZZ_VERBOSE=1 build/fuzz/fuzz_load tests/fuzz/seeds/load/*
#
# Needs clang and libFuzzer (Debian 12: clang-14 and libclang-rt-14-dev).
# Run as root: fuzz_load writes root-owned policy files under $TMPDIR, and
# the file-reading targets chroot (not root, they enter a user namespace
# of their own).
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
FUZZ_TARGETS  := fuzz_config fuzz_load fuzz_explain fuzz_sudoers \
		 fuzz_pamstack fuzz_sshdconf fuzz_nsswitch fuzz_groupline
FUZZ_BINS     := $(FUZZ_TARGETS:%=$(FUZZ_B)/%)
FUZZ_CORE_OBJS := $(patsubst $(SRC)/lib/%.c,$(FUZZ_B)/%.o,$(LIB_SRCS))
# lint/ and audit/, each an archive: a target links the members it
# calls, and none of audit's walk (libacl, pthreads).
FUZZ_LINT_OBJS  := $(patsubst $(SRC)/%.c,$(FUZZ_B)/%.o,$(LINT_SRCS))
FUZZ_AUDIT_OBJS := $(patsubst $(SRC)/%.c,$(FUZZ_B)/%.o,$(AUDIT_SRCS))
FUZZ_UNIT_LIBS  := $(FUZZ_B)/liblint.a $(FUZZ_B)/libaudit.a
# One dictionary per syntax.
FUZZ_DICT_fuzz_config   := $(FUZZ_DIR)/policy.dict
FUZZ_DICT_fuzz_load     := $(FUZZ_DIR)/policy.dict
FUZZ_DICT_fuzz_explain  := $(FUZZ_DIR)/policy.dict
FUZZ_DICT_fuzz_sudoers  := $(FUZZ_DIR)/sudoers.dict
FUZZ_DICT_fuzz_pamstack := $(FUZZ_DIR)/pamstack.dict
FUZZ_DICT_fuzz_sshdconf := $(FUZZ_DIR)/sshdconf.dict
FUZZ_DICT_fuzz_nsswitch := $(FUZZ_DIR)/nsswitch.dict
FUZZ_DICT_fuzz_groupline := $(FUZZ_DIR)/group.dict

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
# The admin's files: shapes of Debian 12's own, each with its target's
# "#%file" parts for includes.
FUZZ_SEEDS_fuzz_sudoers  := $(FUZZ_DIR)/seeds/sudoers
FUZZ_SEEDS_fuzz_pamstack := $(FUZZ_DIR)/seeds/pamstack
FUZZ_SEEDS_fuzz_sshdconf := $(FUZZ_DIR)/seeds/sshdconf
FUZZ_SEEDS_fuzz_nsswitch := $(FUZZ_DIR)/seeds/nsswitch
FUZZ_SEEDS_fuzz_groupline := $(FUZZ_DIR)/seeds/group
# Files only: libFuzzer takes a directory among its inputs as a corpus to
# fuzz from, and would fuzz without end instead of replaying.
FUZZ_REPLAY    = $(filter-out %/README %/README.md, \
		   $(shell find $(FUZZ_DIR)/regressions $(FUZZ_DIR)/seeds \
			   -type f | LC_ALL=C sort))

fuzz-build: $(FUZZ_BINS)

$(FUZZ_B):
	mkdir -p $(FUZZ_B)

# The core as the fuzzers see it: instrumented for coverage and the
# sanitizers.  Warnings stay warnings here (gcc -Werror guards the real
# build); the fuzz targets themselves are -Werror.
$(FUZZ_CORE_OBJS): $(FUZZ_B)/%.o: $(SRC)/lib/%.c $(wildcard $(SRC)/lib/*.h) $(B)/parser-id.h | $(FUZZ_B)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(INC_lib) -Wall -Wextra -Wno-unused-parameter \
		-fsanitize=fuzzer-no-link -c -o $@ $<

# lint/ and audit/ alike, each with its unit's include path.  The
# sudoers reader's alias expansion budget is 100,000 per rule, 1.5 s
# under ASan: a few rules that name a looping alias would pass the 25 s
# an input may take (FUZZ_TIMEOUT); 5,000 still reaches every limit.
FUZZ_UNIT_DEFS := -DEXPANSION_BUDGET=5000
$(FUZZ_LINT_OBJS) $(FUZZ_AUDIT_OBJS): $(FUZZ_B)/%.o: $(SRC)/%.c \
		$(wildcard $(SRC)/lib/*.h $(SRC)/lint/*.h $(SRC)/audit/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_UNIT_DEFS) \
		$(INC_$(call unit_of,$*)) -Wall -Wextra \
		-Wno-unused-parameter -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_B)/liblint.a: $(FUZZ_LINT_OBJS)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_B)/libaudit.a: $(FUZZ_AUDIT_OBJS)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_BINS): $(FUZZ_B)/%: $(FUZZ_DIR)/%.c $(FUZZ_DIR)/fuzz_common.h \
		$(FUZZ_DIR)/fuzz_root.h $(FUZZ_CORE_OBJS) $(FUZZ_UNIT_LIBS) | $(FUZZ_B)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Wall -Wextra -Werror $(INC_cli) -iquote tests/lib \
		-fsanitize=fuzzer -o $@ $< $(FUZZ_CORE_OBJS) $(FUZZ_UNIT_LIBS) \
		$(FUZZ_LIBS)

fuzz: $(FUZZ_TARGETS:%=fuzz-run-%)

$(FUZZ_TARGETS:%=fuzz-run-%): fuzz-run-%: $(FUZZ_B)/%
	mkdir -p $(FUZZ_B)/corpus/$* $(FUZZ_B)/artifacts
	$(FUZZ_ENV) $(FUZZ_B)/$* -max_total_time=$(FUZZ_SECONDS) \
		-max_len=$(FUZZ_MAX_LEN) -timeout=$(FUZZ_TIMEOUT) \
		-dict=$(FUZZ_DICT_$*) -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_B)/artifacts/$*- $(FUZZ_FLAGS) \
		$(FUZZ_B)/corpus/$* $(FUZZ_SEEDS_$*)

fuzz-regress: $(FUZZ_TARGETS:%=fuzz-regress-%)

# The host directory that regressions/root-escape-through-a-symlink
# links to: a target that makes an input's files outside its root
# (fuzz_root.h) writes into it, and the replay fails.
FUZZ_ESCAPE   := /tmp/dg-fuzz-escape-probe

$(FUZZ_TARGETS:%=fuzz-regress-%): fuzz-regress-%: $(FUZZ_B)/%
	mkdir -p $(FUZZ_B)/artifacts $(FUZZ_ESCAPE)
	$(FUZZ_ENV) $(FUZZ_B)/$* -timeout=$(FUZZ_TIMEOUT) \
		-artifact_prefix=$(FUZZ_B)/artifacts/$*- $(FUZZ_REPLAY)
	@if [ -n "$$(ls -A $(FUZZ_ESCAPE))" ]; then \
		echo "$*: an input's files were made outside its root:" \
		     "$$(ls -A $(FUZZ_ESCAPE)) in $(FUZZ_ESCAPE)" >&2; \
		exit 1; \
	fi

.PHONY: fuzz-build fuzz fuzz-regress $(FUZZ_TARGETS:%=fuzz-run-%) \
	$(FUZZ_TARGETS:%=fuzz-regress-%)

.DEFAULT_GOAL := $(FUZZ_SAVED_GOAL)
