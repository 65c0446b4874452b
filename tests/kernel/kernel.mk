# Checks beacon against a real Linux kernel's Bluetooth stack (tests/kernel/README.md).
# Included from the top-level Makefile; `make test-kernel` runs it, and `make test` runs it when the
# rig's prerequisites are installed (KERNEL_RIG_READY).

KERNEL_RIG := tests/kernel/run.sh
KERNEL_RIG_BINARY := .build/release/beacon
# python with bumble for the emulated controllers; run.sh defaults to .venv/bin/python as well
BEACON_RIG_PYTHON ?= $(CURDIR)/.venv/bin/python
export BEACON_RIG_PYTHON

# Non-empty when qemu, a Debian kernel with Bluetooth modules, static busybox, cpio and btattach are here.
KERNEL_RIG_READY := $(shell command -v qemu-system-x86_64 >/dev/null 2>&1 && command -v cpio >/dev/null 2>&1 \
	&& command -v btattach >/dev/null 2>&1 && [ -x /bin/busybox ] \
	&& ls /lib/modules/*/kernel/net/bluetooth/bluetooth.ko* >/dev/null 2>&1 && ls /boot/vmlinuz-* >/dev/null 2>&1 && echo yes)

# Once with controllers that announce the LE extended commands, once with legacy-only controllers.
define KERNEL_RIG_RUN
$(RELEASE_BUILD) --product beacon
BEACON_RIG_COMMANDS=extended $(KERNEL_RIG) $(KERNEL_RIG_BINARY)
BEACON_RIG_COMMANDS=legacy $(KERNEL_RIG) $(KERNEL_RIG_BINARY)
endef

.PHONY: test-kernel test-kernel-if-available

## test-kernel: boot a kernel under QEMU with two emulated controllers and run tests/kernel/checks.sh
test-kernel:
	$(KERNEL_RIG_RUN)

## test-kernel-if-available: test-kernel when its prerequisites are installed, else say what is missing
test-kernel-if-available:
ifeq ($(KERNEL_RIG_READY),yes)
	$(KERNEL_RIG_RUN)
else
	@echo "test-kernel skipped: needs qemu-system-x86 busybox-static linux-image-amd64 cpio bluez"
endif
