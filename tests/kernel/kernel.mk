# tests/kernel/kernel.mk: the kernel series' tests, included from the top
# Makefile with
#
#     include tests/kernel/kernel.mk
#
#   make kernel-check          for each version in KERNEL_VERSIONS: build
#                              (or take from the cache) a stock and a
#                              patched kernel, boot both in qemu (TCG)
#                              and check them against tests/kernel/plan
#                              ("N passed, N failed"); then what
#                              kernel-series-check does
#   make kernel-check KERNEL_DEBUG=1
#                              the patched kernels with KASAN, lockdep,
#                              PROVE_RCU and kmemleak: the kselftest, a
#                              sticky-list race, the kernel log
#   make kernel-check-6.1, make kernel-check-6.12
#                              one version only
#   make kernel-checkpatch     checkpatch.pl --strict --codespell on every
#                              patch (kernel-check runs it first)
#   make kernel-series-check   every prefix of each series builds, and
#                              boots a kernel at least as safe as stock
#
# Kernels, sources and logs live in $(KERNEL_CACHE), outside the tree.
# It relies on the top Makefile's `all` target and $(B).

KERNEL_TESTS      := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
KERNEL_VERSIONS   ?= 6.12 6.1
KERNEL_DEBUG      ?= 0
# root (CI): /var/cache; anyone else: the XDG cache directory.
KERNEL_CACHE      ?= $(if $(filter 0,$(shell id -u)),/var/cache/dropgroups-kernel,$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/dropgroups-kernel)
KERNEL_ENV         = KERNEL_CACHE=$(KERNEL_CACHE) KERNEL_DEBUG=$(KERNEL_DEBUG)

kernel-check:
	$(KERNEL_TESTS)/install-deps.sh $(KERNEL_VERSIONS)
	$(KERNEL_ENV) $(KERNEL_TESTS)/checkpatch.sh $(KERNEL_VERSIONS)
	$(MAKE) all
	$(KERNEL_ENV) BUILD=$(abspath $(B)) $(KERNEL_TESTS)/kernel-check.sh $(KERNEL_VERSIONS)
	$(if $(filter 1,$(KERNEL_DEBUG)),,$(KERNEL_ENV) $(KERNEL_TESTS)/check-series.sh $(KERNEL_VERSIONS))

kernel-check-6.1 kernel-check-6.12:
	$(MAKE) kernel-check KERNEL_VERSIONS=$(@:kernel-check-%=%)

kernel-checkpatch:
	$(KERNEL_TESTS)/install-deps.sh $(KERNEL_VERSIONS)
	$(KERNEL_ENV) $(KERNEL_TESTS)/checkpatch.sh $(KERNEL_VERSIONS)

kernel-series-check:
	$(KERNEL_TESTS)/install-deps.sh $(KERNEL_VERSIONS)
	$(KERNEL_ENV) $(KERNEL_TESTS)/check-series.sh $(KERNEL_VERSIONS)

.PHONY: kernel-check kernel-check-6.1 kernel-check-6.12 kernel-checkpatch kernel-series-check
