# The test programs: unit tests, the helpers the integration tests run,
# the stress tests' module copies and the bench driver.  Included by the
# top Makefile, whose B, SRC, *_OBJS, INC_* and flags it uses; it adds
# rules and the UNIT_TESTS and TEST_HELPERS lists, and no target of its
# own that `make` would build by default.

UNIT_TESTS   := test_policy test_decide test_config test_cache test_resolve test_idmap test_property \
		test_pamstack test_ways test_nsswitch test_sudoers test_dropin \
		test_sshdconf test_syntax test_logline
TEST_HELPERS  = $(B)/logsink $(B)/pambench $(B)/libnss_dgfault.so.2 $(B)/allocfail \
		$(B)/pam_cycles $(B)/item_switch $(B)/two_sessions \
		$(B)/pam_dropgroups-unpinned.so $(B)/nssprobe $(B)/liar.so $(STRESS_HELPERS) \
		$(TSAN_CLI) $(B)/tsan/dropgroups-racy $(B)/stress/dropgroups-leaky

# A unit test sees every unit's headers, and links every object but the
# PAM entry points and the CLI's main.
UNIT_OBJS    := $(LIB_OBJS) $(LINT_OBJS) $(AUDIT_OBJS)

$(B)/test_%: tests/unit/test_%.c $(UNIT_OBJS) | $(B)
	$(CC) $(ALL_CFLAGS) -Wno-write-strings -Wno-discarded-qualifiers \
		$(INC_cli) -iquote tests/lib -o $@ $< $(UNIT_OBJS) $(ALL_LDFLAGS) \
		$(PKG_LIBS) -lacl -pthread $(shell pkg-config --libs cmocka)

$(B)/logsink: tests/lib/logsink.c | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

# -rdynamic: its ALLOCFAIL_TRACE backtraces name the driver's functions.
$(B)/allocfail: tests/faults/allocfail.c | $(B)
	$(CC) $(ALL_CFLAGS) -rdynamic -o $@ $< $(ALL_LDFLAGS) -lpam -ldl

# Preloaded: a kernel that lies after setgroups (tests/faults/liar.c).
$(B)/liar.so: tests/faults/liar.c | $(B)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $< $(ALL_LDFLAGS) -ldl

$(B)/pam_cycles: tests/stress/pam_cycles.c | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) -lpam

$(B)/item_switch: tests/faults/item_switch.c | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) -lpam

$(B)/two_sessions: tests/stress/two_sessions.c | $(B)
	$(CC) $(ALL_CFLAGS) -pthread -o $@ $< $(ALL_LDFLAGS) -lpam

# The module as it would be without -z nodelete: the baseline of
# tests/integration/28-process-edges.sh, which shows why it needs it.
$(B)/pam_dropgroups-unpinned.so: $(LIB_OBJS) $(MODULE_OBJS) $(MODULE_MAP)
	$(CC) $(MODULE_LINK) -o $@ $(LIB_OBJS) $(MODULE_OBJS) \
		$(ALL_LDFLAGS) $(PKG_LIBS)

# An NSS module that the sandbox puts after "files" (tests/nss/dgfault.c).
$(B)/libnss_dgfault.so.2: tests/nss/dgfault.c | $(B)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -Wl,-soname,libnss_dgfault.so.2 -o $@ $< \
		$(ALL_LDFLAGS)

# The stress tests' module copies (tests/integration/95-stress.sh): built
# from the same sources with clang's ThreadSanitizer, and with a planted
# leak or race (tests/stress/*_canary.c) that the detectors must catch.
STRESS_SRCS  := $(LIB_SRCS) $(MODULE_SRCS)
STRESS_CC     = $(1) -std=gnu11 -D_GNU_SOURCE -O1 -g -fPIC -shared \
		-I$(B) $(INC_module) $(PKG_CFLAGS) \
		-Wl,--version-script=$(MODULE_MAP) \
		-o $@ $(STRESS_SRCS) $(2) $(PKG_LIBS)
STRESS_HELPERS := $(B)/stress/pam_dropgroups.so $(B)/stress/pam_threads \
		$(B)/stress/leaky.so $(B)/stress/racy.so
STRESS_DEPS  := $(STRESS_SRCS) $(B)/parser-id.h $(wildcard $(SRC)/lib/*.h)

$(B)/stress:
	mkdir -p $@

# (named pam_dropgroups.so: pam_syslog tags its lines with the file name)
$(B)/stress/pam_dropgroups.so: $(STRESS_DEPS) | $(B)/stress
	$(call STRESS_CC,clang -fsanitize=thread)

$(B)/stress/racy.so: $(STRESS_DEPS) tests/stress/race_canary.c tests/stress/canary.h | $(B)/stress
	$(call STRESS_CC,clang -fsanitize=thread,tests/stress/race_canary.c -Wl$(comma)--wrap=dg_plan_prepare)

$(B)/stress/leaky.so: $(STRESS_DEPS) tests/stress/leak_canary.c tests/stress/canary.h | $(B)/stress
	$(call STRESS_CC,$(CC),tests/stress/leak_canary.c -Wl$(comma)--wrap=dg_plan_prepare)

$(B)/stress/pam_threads: tests/stress/pam_threads.c | $(B)/stress
	clang -O1 -g -fsanitize=thread -Wall -Wextra -Werror -o $@ $< -lpam

comma := ,

# The CLI built with clang's ThreadSanitizer, for the audit's parallel
# walk (audit/walk.c; tests/integration/96-cli-checkers.sh).  One object
# per source in $(B)/tsan, each unit with its own include path as in the
# real build: a mutation of one file rebuilds one object (make mutate).
TSAN_CLI     := $(B)/tsan/dropgroups
TSAN_FLAGS   := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
TSAN_OBJS    := $(patsubst $(SRC)/%.c,$(B)/tsan/%.o,\
		$(LIB_SRCS) $(LINT_SRCS) $(AUDIT_SRCS) $(CLI_SRCS))

$(B)/tsan/%.o: $(SRC)/%.c
	@mkdir -p $(@D)
	clang -std=gnu11 -D_GNU_SOURCE -DDG_VERSION='"$(VERSION)"' -I$(B) \
		$(WARN) $(TSAN_FLAGS) $(PKG_CFLAGS) $(INC_$(call unit_of,$*)) \
		$(DEP_CFLAGS) -fPIE -c -o $@ $<

$(B)/tsan/lib/cache.o: $(B)/parser-id.h

$(TSAN_CLI): $(TSAN_OBJS)
	clang -fsanitize=thread -pie -pthread -o $@ $^ $(PKG_LIBS) -lacl

# The same with a planted race in the walk's threads
# (tests/stress/walk_race_canary.c), which the TSan test must catch.
$(B)/tsan/dropgroups-racy: $(TSAN_OBJS) tests/stress/walk_race_canary.c
	clang $(TSAN_FLAGS) -Wall -Wextra -Werror -I$(B) $(INC_audit) -pie -pthread -o $@ \
		$(TSAN_OBJS) tests/stress/walk_race_canary.c \
		-Wl,--wrap=dg_evidence_add $(PKG_LIBS) -lacl

# The CLI with a planted leak (tests/stress/leak_canary.c: 64 bytes per
# dg_plan_prepare, which explain and run call), which the valgrind test
# of the CLI must catch.
$(B)/stress/dropgroups-leaky: $(PIE_OBJS) tests/stress/leak_canary.c tests/stress/canary.h | $(B)/stress
	$(CC) $(ALL_CFLAGS) -fPIE -pie -pthread -o $@ $(PIE_OBJS) \
		tests/stress/leak_canary.c -Wl,--wrap=dg_plan_prepare \
		$(ALL_LDFLAGS) $(PKG_LIBS) -lacl

-include $(wildcard $(B)/tsan/*/*.d)

# What each NSS look-up answers through a directory, and how long it takes.
$(B)/nssprobe: tests/nss/nssprobe.c | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

# One login through pam_dropgroups against pam_permit, pam_group and the
# bare getgroups+setgroups pair (see bench in the top Makefile).
$(B)/pambench: tests/bench/pambench.c | $(B)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) -lpam
