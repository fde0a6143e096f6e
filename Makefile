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

CC           ?= cc
PKGS         := pam libconfig libcap
PKG_CFLAGS    = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS      = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lpam -lconfig -lcap)

WARN         := -Wall -Wextra -Werror -Wformat=2 -Wshadow -Wwrite-strings \
		-Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter
HARDEN       := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIC
CFLAGS       ?= -O2 -g
ALL_CFLAGS   := -std=gnu11 -D_GNU_SOURCE -DDG_VERSION='"$(VERSION)"' \
		$(WARN) $(HARDEN) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS)
LDFLAGS      ?=
ALL_LDFLAGS  := -Wl,-z,relro -Wl,-z,now -Wl,--as-needed $(LDFLAGS)

B            ?= build
SRC          := pam_dropgroups
CORE         := util diag config policy nss load kernel plan
CORE_OBJS    := $(CORE:%=$(B)/%.o)
UNIT_TESTS   := test_policy test_config test_property
TEST_HELPERS := $(B)/logsink $(B)/nssfail.so $(B)/allocfail $(B)/pam_cycles \
		$(B)/nssprobe

all: $(B)/pam_dropgroups.so $(B)/dropgroups

$(B):
	mkdir -p $(B)

$(B)/%.o: $(SRC)/%.c $(wildcard $(SRC)/*.h) | $(B)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/pam_dropgroups.so: $(CORE_OBJS) $(B)/pam_dropgroups.o $(SRC)/module.map
	$(CC) -shared -o $@ $(CORE_OBJS) $(B)/pam_dropgroups.o \
		-Wl,--version-script=$(SRC)/module.map -Wl,-z,defs \
		$(ALL_LDFLAGS) $(PKG_LIBS)

$(B)/dropgroups: $(CORE_OBJS) $(B)/cli.o
	$(CC) -pie -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(B)/test_%: tests/unit/test_%.c $(CORE_OBJS) | $(B)
	$(CC) $(ALL_CFLAGS) -Wno-write-strings -Wno-discarded-qualifiers \
		-I$(SRC) -o $@ $< $(CORE_OBJS) $(ALL_LDFLAGS) \
		$(PKG_LIBS) $(shell pkg-config --libs cmocka)

$(B)/logsink: tests/logsink.c | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

# -rdynamic: its ALLOCFAIL_TRACE backtraces name the driver's functions.
$(B)/allocfail: tests/faults/allocfail.c | $(B)
	$(CC) $(ALL_CFLAGS) -rdynamic -o $@ $< $(ALL_LDFLAGS) -lpam -ldl

$(B)/pam_cycles: tests/stress/pam_cycles.c | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) -lpam

# What each NSS look-up answers through a directory, and how long it takes.
$(B)/nssprobe: tests/nssprobe.c | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

$(B)/nssfail.so: tests/nssfail.c | $(B)
	$(CC) $(ALL_CFLAGS) -shared -o $@ $< $(ALL_LDFLAGS) -ldl

deps:
	tests/install-deps.sh

unit: $(UNIT_TESTS:%=$(B)/%)

check: deps
	$(MAKE) all unit $(TEST_HELPERS)
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
		all unit build-asan/logsink build-asan/nssfail.so build-asan/nssprobe
	BUILD=$(CURDIR)/build-asan DG_SANITIZE=1 LD_PRELOAD="$(SAN_PRELOAD)" \
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:verify_asan_link_order=0:alloc_dealloc_mismatch=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/run-all.sh

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

# libFuzzer targets over the loader, the validator and explain:
# make fuzz FUZZ_SECONDS=N, and make fuzz-regress (part of make check).
include tests/fuzz/fuzz.mk

# The kernel series (kernel/) in qemu: make kernel-check.
include tests/kernel/kernel.mk

clean:
	rm -rf build build-asan

.PHONY: all deps unit check check-asan check-unit demo install clean
