# Static analysis of every production source; included by the top
# Makefile:
#
#   include tests/analyze/analyze.mk
#
# It uses the top Makefile's B, SRC, *_SRCS, INC_*, ALL_CFLAGS, HARDEN and
# unit_of, and defines only ANALYZE_* variables and analyze* targets:
#
#   make analyze         both analyzers below; fails on any finding
#   make analyze-gcc     gcc -fanalyzer over each source, -Werror: one
#                        object per source in build/analyze/gcc (kept, so a
#                        second run analyzes only what changed)
#   make analyze-clang   clang's analyzer through scan-build --status-bugs,
#                        over each source afresh; the HTML reports land in
#                        build/analyze/scan-build/
#
# ANALYZE_SRCS=... analyzes only those files (tests/analyze/planted.sh).
# A finding that is wrong is suppressed only where it is reported, with
# the reason beside it (HACKING.md, "Static analysis"); the two
# suppressions below, for a whole analyzer, say why.
#
# Needs gcc 12 and clang-tools (scan-build; Debian 12: clang-tools-14).

# Wherever it is included, this file does not change the default goal.
ANALYZE_SAVED_GOAL := $(.DEFAULT_GOAL)

ANALYZE_B     := $(B)/analyze
ANALYZE_SRCS  ?= $(LIB_SRCS) $(MODULE_SRCS) $(LINT_SRCS) $(AUDIT_SRCS) \
		 $(CLI_SRCS)
ANALYZE_GCC   ?= gcc
ANALYZE_SCAN  ?= scan-build
ANALYZE_JOBS  ?= $(shell nproc 2>/dev/null || echo 1)

# gcc: the build's own flags, at -O0.  gcc 12's analyzer runs after the
# early inliner: at -O1 and up it sees dg_freep (lib/util.h) inlined into
# each function and reports the NULL that a _cleanup_free_ pointer was
# initialised with as uninitialised, once per such pointer; at -O0 it
# follows the cleanup as written.  _FORTIFY_SOURCE needs optimisation
# (and warns, -Werror, without it), so HARDEN goes too: what the fortified
# calls would catch at run time is not what the analyzer looks for.
# -Wanalyzer-too-complex, not an error: gcc 12 gives up on a function
# whose exploded graph outgrows its limits and keeps only what it found
# before (HACKING.md, "Static analysis"); the warning names each place,
# so that the log shows what was not analyzed, rather than a clean run
# saying nothing of it.
ANALYZE_GCC_CFLAGS := $(filter-out $(HARDEN) $(CFLAGS),$(ALL_CFLAGS)) \
		      -O0 -g -fanalyzer -MMD -MP -DDG_ANALYZER \
		      -Wanalyzer-too-complex -Wno-error=analyzer-too-complex
ANALYZE_GCC_OBJS = $(patsubst $(SRC)/%.c,$(ANALYZE_B)/gcc/%.o,$(ANALYZE_SRCS))

# clang: scan-build's default checkers, less unix.Malloc.  clang 14's
# analyzer does not run __attribute__((cleanup)) (lib/util.h's
# _cleanup_free_, used all through the code), so it reports each such
# pointer as leaked at every return after its allocation: 60-odd wrong
# findings.  Leaks, double frees and uses after free stay covered by gcc
# -fanalyzer above (-Wanalyzer-malloc-leak, -double-free,
# -use-after-free), by valgrind and by ASan in make check-asan.
ANALYZE_SCAN_FLAGS := --status-bugs -o $(ANALYZE_B)/scan-build \
		      -disable-checker unix.Malloc
ANALYZE_CLANG_DONE = $(patsubst $(SRC)/%.c,$(ANALYZE_B)/clang/%.done,$(ANALYZE_SRCS))

# One analyzer after the other: each uses every core, and gcc's findings
# come first.
analyze: analyze-gcc
	$(MAKE) -s --no-print-directory analyze-clang

analyze-gcc: $(ANALYZE_GCC_OBJS)

$(ANALYZE_B)/gcc/%.o: $(SRC)/%.c $(B)/parser-id.h
	@mkdir -p $(@D)
	$(ANALYZE_GCC) $(ANALYZE_GCC_CFLAGS) $(INC_$(call unit_of,$*)) -c -o $@ $<

-include $(wildcard $(ANALYZE_B)/gcc/*/*.d)

# Every source afresh: scan-build reports only what it compiles in this
# run.  The sub-make gets its -j and B from here (scan-build runs it
# outside this make's job server); scan-build sets its CC.
analyze-clang: $(B)/parser-id.h
	rm -rf $(ANALYZE_B)/clang
	MAKEFLAGS= $(ANALYZE_SCAN) $(ANALYZE_SCAN_FLAGS) $(MAKE) -s \
		-j$(ANALYZE_JOBS) B=$(B) ANALYZE_SRCS="$(ANALYZE_SRCS)" \
		analyze-clang-objs

analyze-clang-objs: $(ANALYZE_CLANG_DONE)

# -fsyntax-only: scan-build's compiler wrapper analyzes the source all the
# same, and the compile it also runs is then a parse, not a build.
$(ANALYZE_B)/clang/%.done: $(SRC)/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(INC_$(call unit_of,$*)) -fsyntax-only $<
	touch $@

.PHONY: analyze analyze-gcc analyze-clang analyze-clang-objs

.DEFAULT_GOAL := $(ANALYZE_SAVED_GOAL)
