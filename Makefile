# pam_dropgroups: the PAM module, the dropgroups CLI, their tests and docs.
#
#   make            build build/pam_dropgroups.so and build/dropgroups
#   make check      install test dependencies (Debian), run every test
#   make demo       show the module trimming groups through the real su
#   make install    DESTDIR=... PREFIX=... (module goes to the PAM dir)

VERSION      := 0.1.0
PREFIX       ?= /usr/local
SBINDIR      ?= $(PREFIX)/sbin
MANDIR       ?= $(PREFIX)/share/man
SYSCONFDIR   ?= /etc
DOCDIR       ?= $(PREFIX)/share/doc/pam_dropgroups
# pam-auth-update(8) profiles are Debian's, and live under /usr.
PAMCONFIGDIR ?= /usr/share/pam-configs
# PAM loads modules from one directory; derive it from libpam itself
# (on Debian 12: /usr/lib/x86_64-linux-gnu/security).
SECUREDIR    ?= $(shell pkg-config --variable=libdir pam 2>/dev/null || \
		  echo /usr/lib/$$($(CC) -print-multiarch))/security

PKGS         := pam libconfig libcap
PKG_CFLAGS    = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS      = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lpam -lconfig -lcap)

WARN         := -Wall -Wextra -Werror -Wformat=2 -Wshadow -Wwrite-strings \
		-Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter
HARDEN       := -D_FORTIFY_SOURCE=2 -fstack-protector-strong
CFLAGS       ?= -O2 -g
B            ?= build
ALL_CFLAGS   := -std=gnu11 -D_GNU_SOURCE -DDG_VERSION='"$(VERSION)"' -I$(B) \
		$(WARN) $(HARDEN) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS)
# -MMD: each object lists the headers it includes (build/*.d), so that a
# header change rebuilds exactly what uses it.
DEP_CFLAGS   := -MMD -MP
LDFLAGS      ?=
ALL_LDFLAGS  := -Wl,-z,relro -Wl,-z,now -Wl,--as-needed $(LDFLAGS)

SRC          := pam_dropgroups
# One folder of pam_dropgroups/ per link unit; every file of a folder
# goes into the same binaries (HACKING.md, "Where the code lives"):
#   lib/     the core: policy, cache, NSS, the decision, setgroups.
#            Linked into the module and the CLI alike.
#   module/  the PAM entry points.  lib/ + module/ = pam_dropgroups.so,
#            the only code that runs inside a login.
#   lint/    reading PAM stacks and the ways back in (lint, explain).
#   audit/   dropgroups audit; the only code that links libacl and
#            pthreads.
#   cli/     the dropgroups command: lib/ + lint/ + audit/ + cli/.
# Each unit sees only the headers of the units it links with (INC_*),
# so that lib/ cannot come to depend on the CLI's code.  -iquote, not -I:
# lib/nss.h must not hide <nss.h> from the code that includes it.
srcs_of       = $(sort $(wildcard $(SRC)/$(1)/*.c))
LIB_SRCS     := $(call srcs_of,lib)
MODULE_SRCS  := $(call srcs_of,module)
LINT_SRCS    := $(call srcs_of,lint)
AUDIT_SRCS   := $(call srcs_of,audit)
CLI_SRCS     := $(call srcs_of,cli)
INC_lib      := -iquote $(SRC)/lib
INC_module   := $(INC_lib)
INC_lint     := $(INC_lib) -iquote $(SRC)/lint
INC_audit    := $(INC_lib) -iquote $(SRC)/audit
INC_cli      := $(INC_lint) -iquote $(SRC)/audit
# The module is a shared object (-fPIC) from $(B)/lib and $(B)/module;
# the CLI a PIE, built from its own objects (-fPIE) in $(B)/pie.
obj_of        = $(patsubst $(SRC)/%.c,$(B)/%.o,$(1))
pie_of        = $(patsubst $(SRC)/%.c,$(B)/pie/%.o,$(1))
LIB_OBJS     := $(call obj_of,$(LIB_SRCS))
MODULE_OBJS  := $(call obj_of,$(MODULE_SRCS))
LINT_OBJS    := $(call obj_of,$(LINT_SRCS))
AUDIT_OBJS   := $(call obj_of,$(AUDIT_SRCS))
MODULE_MAP   := $(SRC)/module/module.map
PIE_OBJS     := $(call pie_of,$(LIB_SRCS) $(LINT_SRCS) $(AUDIT_SRCS) $(CLI_SRCS))

all: $(B)/pam_dropgroups.so $(B)/dropgroups

$(B):
	mkdir -p $@

# The compiled policy cache (lib/cache.c) is keyed on this build of the
# parser: a digest of every source file, so that a cache written by one
# build is a miss for any other.
$(B)/parser-id.h: $(sort $(wildcard $(SRC)/*/*.c $(SRC)/*/*.h)) | $(B)
	printf '#define DG_PARSER_ID "%s-%s"\n' '$(VERSION)' \
		"$$(cat $^ | sha256sum | cut -c1-32)" > $@.tmp
	mv $@.tmp $@

$(B)/lib/cache.o $(B)/pie/lib/cache.o: $(B)/parser-id.h

# $(B)/UNIT/FILE.o from $(SRC)/UNIT/FILE.c, with UNIT's include path.
unit_of       = $(firstword $(subst /, ,$(1)))

$(B)/%.o: $(SRC)/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(INC_$(call unit_of,$*)) $(DEP_CFLAGS) -fPIC -c -o $@ $<

$(B)/pie/%.o: $(SRC)/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(INC_$(call unit_of,$*)) $(DEP_CFLAGS) -fPIE -c -o $@ $<

-include $(wildcard $(B)/*/*.d $(B)/pie/*/*.d)

MODULE_LINK   = -shared -Wl,--version-script=$(MODULE_MAP) -Wl,-z,defs

$(B)/pam_dropgroups.so: $(LIB_OBJS) $(MODULE_OBJS) $(MODULE_MAP)
	$(CC) $(MODULE_LINK) -Wl,-z,nodelete -o $@ $(LIB_OBJS) $(MODULE_OBJS) \
		$(ALL_LDFLAGS) $(PKG_LIBS)

$(B)/dropgroups: $(PIE_OBJS)
	$(CC) -pie -pthread -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lacl

# The unit tests, the test helpers, the stress and bench programs.
include tests/tests.mk

deps:
	tests/install-deps.sh

unit: $(UNIT_TESTS:%=$(B)/%)

# Everything the suite runs besides the module and the CLI.
helpers: $(TEST_HELPERS)

check: deps
	$(MAKE) all unit helpers
	tests/run-all.sh

# The whole suite again with the module, the CLI and the unit tests built
# with AddressSanitizer and UndefinedBehaviorSanitizer.  The programs that
# load the module (pamtester, su, sudo, sshd) are not instrumented, so the
# sanitizer runtimes are preloaded into every process of the run; leak
# checking is off there (the valgrind test owns leaks).
SAN_CFLAGS   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
		-fno-sanitize-recover=all
SAN_LDFLAGS  := -fsanitize=address,undefined
SAN_PRELOAD   = $(shell $(CC) -print-file-name=libasan.so) $(shell $(CC) -print-file-name=libubsan.so)

check-asan: deps
	$(MAKE) B=build-asan CFLAGS="$(SAN_CFLAGS)" LDFLAGS="$(SAN_LDFLAGS)" \
		all unit build-asan/logsink build-asan/libnss_dgfault.so.2 \
		build-asan/item_switch build-asan/two_sessions \
		build-asan/pam_dropgroups-unpinned.so build-asan/nssprobe \
		build-asan/liar.so
	BUILD=$(CURDIR)/build-asan DG_SANITIZE=1 LD_PRELOAD="$(SAN_PRELOAD)" \
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:verify_asan_link_order=0:alloc_dealloc_mismatch=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/run-all.sh

# The .deb in a Debian 12 root made by debootstrap (tests/package/): built,
# installed, enabled as README.md says, purged, logged in through at each
# step.  Slow (a package build, and debootstrap needs the network the
# first time), so not part of `make check`.
check-package: deps
	$(MAKE) all helpers
	tests/package/root.sh $(B)/package/bookworm-root.tar
	DG_TEST_DIR=$(CURDIR)/tests/package tests/run-integration.sh

# The unit tests alone: no root, no namespaces (used by the package build).
check-unit: unit
	set -e; for t in $(UNIT_TESTS); do $(B)/$$t; done

demo: deps
	$(MAKE) all $(B)/logsink
	tests/demo.sh

install: all
	install -D -m 0644 $(B)/pam_dropgroups.so \
		$(DESTDIR)$(SECUREDIR)/pam_dropgroups.so
	install -D -m 0755 $(B)/dropgroups $(DESTDIR)$(SBINDIR)/dropgroups
	install -D -m 0644 man/pam_dropgroups.8 $(DESTDIR)$(MANDIR)/man8/pam_dropgroups.8
	install -D -m 0644 man/dropgroups.8 $(DESTDIR)$(MANDIR)/man8/dropgroups.8
	install -D -m 0644 man/dropgroups.conf.5 $(DESTDIR)$(MANDIR)/man5/dropgroups.conf.5
	install -D -m 0644 conf/dropgroups.conf $(DESTDIR)$(DOCDIR)/dropgroups.conf.example
	install -d -m 0755 $(DESTDIR)$(DOCDIR)/pam.d
	install -m 0644 conf/pam.d/* $(DESTDIR)$(DOCDIR)/pam.d/
	install -D -m 0644 conf/pam-configs/dropgroups $(DESTDIR)$(PAMCONFIGDIR)/dropgroups
	# The live policy is the admin's: never overwrite it.
	test -e $(DESTDIR)$(SYSCONFDIR)/security/dropgroups.conf || \
		install -D -m 0644 conf/dropgroups.conf \
			$(DESTDIR)$(SYSCONFDIR)/security/dropgroups.conf
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)/security/dropgroups.d

# What the module adds to one login of a user in 2,000 directory groups,
# warm cache, through SSSD and nslcd (tests/bench/directory.sh; as root,
# in the test sandbox): medians of BENCH_RUNS interleaved rounds.
BENCH_RUNS    ?= 9
BENCH_DAEMONS ?= sss nslcd
bench-directory: all $(B)/logsink $(B)/nssprobe
	BENCH_RUNS=$(BENCH_RUNS) BENCH_DAEMONS="$(BENCH_DAEMONS)" \
		unshare --mount --net --pid --fork --mount-proc -- \
		bash tests/lib/sandbox.sh tests/bench/directory.sh bench_directory

# dropgroups audit against find -printf '%m %G' on a tree of 1,000,000
# files in the sandbox's tmpfs, side by side in one run
# (tests/bench/audit.sh; as root): medians of BENCH_AUDIT_RUNS interleaved
# rounds.
BENCH_FILES  ?= 1000000
BENCH_AUDIT_RUNS ?= 5
bench-audit: all $(B)/logsink
	BENCH_RUNS=$(BENCH_AUDIT_RUNS) BENCH_FILES=$(BENCH_FILES) \
		unshare --mount --net --pid --fork --mount-proc -- \
		bash tests/lib/sandbox.sh tests/bench/audit.sh bench_audit

# One login through pam_dropgroups against pam_permit, pam_group and the
# bare getgroups+setgroups pair, in one process (tests/bench/pambench.c;
# as root, in a mount namespace of its own with throwaway /etc files).
# Its last line: dropgroups_vs_pam_group_ratio: R.
# BENCH_CASES="G:R G+E:R ..." picks cases (G+E: E more /etc/group
# lines), BENCH_REPS the repetitions.  See docs/performance.md.
bench: all $(B)/pambench
	BENCH_CLI=$(CURDIR)/$(B)/dropgroups $(B)/pambench $(CURDIR)/$(B)/pam_dropgroups.so

# The same cases in callgrind instruction counts (deterministic on a
# noisy machine), against tests/bench/callgrind-baseline.txt.
bench-callgrind: all $(B)/pambench
	tests/bench/callgrind.sh

# Tests that can fail: each planted bug of tests/mutate/mutations, one at
# a time in a scratch copy (build/mutate), against the tests it names
# (root).  MUTATE_SET=ci: the subset CI runs.  mutate-apply: only check
# that every mutation still applies and builds.
MUTATE_SET   ?= all
mutate:
	MUTATE_SET=$(MUTATE_SET) tests/mutate/run.sh

mutate-apply:
	MUTATE_SET=$(MUTATE_SET) tests/mutate/run.sh --apply-only

# libFuzzer targets over the loader, the validator and explain:
# make fuzz FUZZ_SECONDS=N, and make fuzz-regress (part of make check).
include tests/fuzz/fuzz.mk

# The kernel series (kernel/) in qemu: make kernel-check.
include tests/kernel/kernel.mk

# gcc -fanalyzer and clang's analyzer (scan-build) over every production
# source: make analyze (tests/analyze/).
include tests/analyze/analyze.mk

# The proof of the decision core (lib/decide.c): make prove.
include tests/prove/prove.mk

clean:
	rm -rf $(B) build-asan

.PHONY: all deps unit helpers check check-asan check-unit check-package demo install clean \
	bench-directory bench-audit bench bench-callgrind mutate mutate-apply
