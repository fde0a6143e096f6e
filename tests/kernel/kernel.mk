# tests/kernel/kernel.mk: the kernel half of issue 5, included from the
# top Makefile with
#
#     include tests/kernel/kernel.mk
#
#   make kernel-check          install the Debian packages it needs, build
#                              the module and the CLI (all), a stock and a
#                              patched kernel (cached), an initramfs, and
#                              check both kernels in qemu (TCG); ends with
#                              "N passed, N failed"
#   make kernel-series-check   build the patched kernel once per patch of
#                              kernel/series, in order: each must build
#
# Kernels, sources and logs live in $(KERNEL_CACHE), outside the tree.
# It relies on the top Makefile's `all` target and $(B).

KERNEL_TESTS      := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# root (CI): /var/cache; anyone else: the XDG cache directory.
KERNEL_CACHE      ?= $(if $(filter 0,$(shell id -u)),/var/cache/dropgroups-kernel,$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/dropgroups-kernel)
KERNEL_VM_TIMEOUT ?= 300
KERNEL_ENV         = KERNEL_CACHE=$(KERNEL_CACHE) KERNEL_VM_TIMEOUT=$(KERNEL_VM_TIMEOUT)

kernel-check:
	$(KERNEL_TESTS)/install-deps.sh
	$(MAKE) all
	$(KERNEL_ENV) BUILD=$(abspath $(B)) $(KERNEL_TESTS)/kernel-check.sh

kernel-series-check:
	$(KERNEL_TESTS)/install-deps.sh
	$(KERNEL_ENV) $(KERNEL_TESTS)/check-series.sh

.PHONY: kernel-check kernel-series-check
