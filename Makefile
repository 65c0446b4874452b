# beacon — build, test and demo. GNU make.
#
#   make deps    system packages (apt, only when missing) and the tools venv (.venv)
#   make build   swift build
#   make test    deps + build, every fuzz target briefly, the kernel rig (tests/kernel) when its
#                packages are installed, then swift test with the integration tests against
#                emulated controllers
#   make deps-kernel  also install the kernel rig's packages (QEMU, Debian's kernel, busybox)
#   make test-kernel  the kernel rig alone: beacon against a real Linux Bluetooth stack under QEMU
#   make bench   throughput of the per-advertisement path (release build)
#   make fuzz    every libFuzzer target for FUZZ_SECONDS (fuzz/fuzz.mk); make test runs each briefly
#   make soak    replay a simulated day of 50,000 beacons, print and bound the peak memory (soak/soak.mk)
#   make demo    beacon advertises an iBeacon on one emulated controller and ranges it on another
#   make install install the binary, man page, completions and systemd unit (install.mk; also
#                install-caps, uninstall, test-install)
#   make clean   remove build products and the venv

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

PYTHON3 ?= python3
# Seconds of simulated air the benchmark pushes through (make bench BENCH_SECONDS=600).
BENCH_SECONDS ?= 300
VENV := .venv
VENV_PYTHON := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.requirements-installed
REQUIREMENTS := tools/requirements.txt
# libbluetooth-dev: kernel HCI headers for CHCI; bluez: btmon reads our captures; tshark: Wireshark's
# reader checks their dates; python3-venv: the tools venv; time: make soak measures peak memory with it;
# libmosquitto-dev: the MQTT sink's client library; mosquitto, mosquitto-clients: the broker and
# subscriber the MQTT tests run.
APT_PACKAGES := libbluetooth-dev bluez tshark python3 python3-venv time libmosquitto-dev mosquitto mosquitto-clients
# The kernel rig: QEMU, Debian's stock kernel with its Bluetooth modules, a static busybox for the guest.
KERNEL_APT_PACKAGES := qemu-system-x86 busybox-static linux-image-amd64 cpio bluez

.PHONY: deps apt-deps deps-kernel build test bench demo clean

deps: apt-deps $(VENV_STAMP)

# apt_install: installs those of the Debian packages $(1) that are missing (as root, else with sudo).
apt_install = missing=""; \
	for package in $(1); do \
	  dpkg-query -W -f='$${Status}\n' "$$package" 2>/dev/null | grep -q '^install ok installed$$' \
	    || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
	  echo "apt-get install:$$missing"; \
	  $$sudo apt-get update -qq; \
	  echo "wireshark-common wireshark-common/install-setuid boolean false" | $$sudo debconf-set-selections; \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

apt-deps:
	@$(call apt_install,$(APT_PACKAGES))

# What the kernel rig (tests/kernel) needs besides deps. Optional: without it make test skips the rig.
deps-kernel: deps
	@$(call apt_install,$(KERNEL_APT_PACKAGES)) \
	  || echo "deps-kernel: the kernel rig's packages could not be installed; make test skips the rig"

$(VENV_PYTHON):
	@$(PYTHON3) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }

# Reinstalled only when the pinned requirements change.
$(VENV_STAMP): $(REQUIREMENTS) | $(VENV_PYTHON)
	@$(VENV_PYTHON) -m pip install -q --disable-pip-version-check -r $(REQUIREMENTS)
	@touch $@

build:
	swift build

# The kernel rig runs in a make of its own, so packages deps-kernel just installed are seen.
# swift test comes last, so its summary closes the output.
test: deps build
	@$(MAKE) --no-print-directory fuzz-smoke
	@$(MAKE) --no-print-directory test-kernel-if-available
	BEACON_INTEGRATION=1 swift test

bench:
	swift build -c release --product beacon-bench
	.build/release/beacon-bench $(BENCH_SECONDS)

demo: deps build
	@tools/demo.sh

clean:
	rm -rf .build $(VENV)

include tests/kernel/kernel.mk
include fuzz/fuzz.mk
include soak/soak.mk
include install.mk
