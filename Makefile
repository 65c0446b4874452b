# beacon — build, test and demo. GNU make.
#
#   make deps    system packages (apt, only when missing), the tools venv (.venv) and the bench venv
#                (.venv-bench: the peers make bench compares with, whose drivers the tests check); each
#                target installs only what it uses: make test all of deps, make demo the packages and .venv
#   make build   swift build: the binary is .build/debug/beacon
#   make test    deps + build, every fuzz target briefly, the kernel rig (tests/kernel) when its
#                packages are installed, then swift test: the unit tests, then the integration tests
#                against emulated controllers
#   make test-repeat N=5  make test N times in a row (default 5), stopping at the first failure; prints
#                each run's result and wall time and a summary line; each run's output is kept in
#                .build/test-repeat/run-I.log
#   make deps-kernel  also install the kernel rig's packages (QEMU, Debian's kernel, busybox)
#   make test-kernel  the kernel rig alone: beacon against a real Linux Bluetooth stack under QEMU
#   make bench   beacon against a C reference loop, its Python peers and btmon on the same captures,
#                and its live path from a fake controller: rates, CPU, peak RSS, syscalls (release build;
#                tools/bench/bench.mk); make bench-quick: the in-process throughput of the hot path only;
#                make bench-instructions: its callgrind instructions per report alone
#   make bench-fleet  beacon locate at building scale through Debian's mosquitto on loopback: simulated
#                gateways at 1 Hz, load after load (50 gateways × 200 beacons, 10,000 readings/s, and up)
#                until one fuser saturates; its CPU per reading, latency p50/p99, peak RSS (make bench
#                runs it last; tools/bench/fleet_bench.py). On the 2-core development machine: 50 × 200
#                at 3.9 % of a core, p99 38 ms; 400,000 readings/s sustained (p99 0.80 s), saturated
#                at 600,000 (docs/performance.md)
#   make eval    ranging accuracy: beacon's estimators and its peers' on real measurements and every
#                shipped scene, and beacon locate and the peers' room rules on the fleet scenes, in process
#                (release build); prints the tables, draws docs/eval/*.png
#   make eval-fleet  beacon locate and the peers' room rules on the fleet scenes, the Kolakowski flat's
#                robot drive (BEACON_FLAT_DATA) and the Daniş office's tracks (BEACON_OFFICE_DATA): every run
#                through beacon range, a real mosquitto and beacon locate, checked against the in-process
#                fuser; prints the tables (docs/eval.md)
#   make fuzz    every libFuzzer target for FUZZ_SECONDS (fuzz/fuzz.mk); make test runs each briefly
#   make soak    replay a simulated day of 50,000 beacons, print and bound the peak memory (soak/soak.mk)
#   make demo    beacon advertises an iBeacon on one emulated controller and ranges it on another
#                (.build/debug/beacon)
#   make install install the binary (stripped; INSTALL_DEBUG_SYMBOLS=1 keeps its symbols beside it), man
#                page, completions and systemd unit (install.mk; also install-caps, uninstall, test-install)
#   make deb     beacon_VERSION_ARCH.deb: what make install installs, under /usr, with /etc/default/beacon
#                and maintainer scripts that grant the capabilities (dist/debian/deb.mk; also test-deb)
#   make clean   remove build products and the venv

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

PYTHON3 ?= python3
# Seconds of simulated air the in-process benchmark pushes through (make bench-quick BENCH_SECONDS=600).
BENCH_SECONDS ?= 300
VENV := .venv
VENV_PYTHON := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.requirements-installed
REQUIREMENTS := tools/requirements.txt
# libbluetooth-dev: kernel HCI headers for CHCI; bluez: btmon reads our captures; tshark: Wireshark's
# reader checks their dates; python3-venv: the tools venv; time: make soak measures peak memory with it;
# libmosquitto-dev: the MQTT sink's client library; mosquitto, mosquitto-clients: the broker and
# subscriber the MQTT tests run; gcc: make bench's C reference loop and fake controller (the tests build
# the loop too); strace: make bench counts the live path's system calls; faketime: the live-building
# integration test runs one gateway with its clocks 3 s ahead (libfaketime).
APT_PACKAGES := libbluetooth-dev bluez tshark python3 python3-venv time libmosquitto-dev mosquitto mosquitto-clients gcc strace faketime
# The kernel rig: QEMU, Debian's stock kernel with its Bluetooth modules, a static busybox for the guest.
KERNEL_APT_PACKAGES := qemu-system-x86 busybox-static linux-image-amd64 cpio bluez

.PHONY: deps apt-deps deps-kernel build test test-repeat eval eval-fleet demo clean

# make bench and bench-quick, and the bench venv (before deps, which installs it too).
include tools/bench/bench.mk

# The bench venv too: the tests check make bench's peer drivers against beacon.
deps: apt-deps $(VENV_STAMP) $(BENCH_STAMP)

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
# The unit tests and the integration tests run in separate processes: Swift Testing runs synchronous
# tests on the cooperative thread pool (one thread per core), where CPU-bound unit tests would hold
# up every wait of the integration tests. swift test comes last, so its summary closes the output.
test: deps build
	@$(MAKE) --no-print-directory fuzz-smoke
	@$(MAKE) --no-print-directory test-kernel-if-available
	swift test --skip IntegrationTests
	BEACON_INTEGRATION=1 swift test --filter IntegrationTests

# How many times test-repeat runs make test.
N ?= 5
REPEAT_LOGS := .build/test-repeat

test-repeat:
	@mkdir -p $(REPEAT_LOGS)
	@case "$(N)" in ''|*[!0-9]*|0) echo "test-repeat: N must be a positive number, not '$(N)'"; exit 2;; esac; \
	passed=0; all_start=$$(date +%s); \
	for run in $$(seq 1 $(N)); do \
	  log=$(REPEAT_LOGS)/run-$$run.log; start=$$(date +%s); \
	  if $(MAKE) --no-print-directory test > "$$log" 2>&1; then result=passed; else result=FAILED; fi; \
	  seconds=$$(( $$(date +%s) - start )); \
	  printf 'test-repeat: run %d/%d %s in %dm%02ds (%s)\n' $$run $(N) $$result $$((seconds / 60)) $$((seconds % 60)) "$$log"; \
	  if [ $$result = FAILED ]; then \
	    tail -n 40 "$$log" | sed 's/^/  | /'; \
	    seconds=$$(( $$(date +%s) - all_start )); \
	    printf 'test-repeat: FAILED at run %d of %d (%d passed before it), %dm%02ds in all\n' \
	      $$run $(N) $$passed $$((seconds / 60)) $$((seconds % 60)); \
	    exit 1; \
	  fi; \
	  passed=$$((passed + 1)); \
	done; \
	seconds=$$(( $$(date +%s) - all_start )); \
	printf 'test-repeat: all %d runs passed, %dm%02ds in all\n' $(N) $$((seconds / 60)) $$((seconds % 60))

# make eval: the real measurements (BEACON_RESEARCH_DATA; skipped with a note when absent) and every
# shipped scene through beacon's estimators and its peers'. The harness writes its data files to
# .build/eval; matplotlib, in a venv of its own, draws them to docs/eval.
BEACON_RESEARCH_DATA ?= ../shared/research-data/herald-edison-rssi-distance
# The Kolakowski flat (six anchors, a robot's drive) the fleet tables replay; skipped with a note when absent.
BEACON_FLAT_DATA ?= ../shared/research-data/kolakowski-flat-ble-rss
# The Daniş office (twelve sensors, nine tracks of a carried beacon; CC0, in the tree).
BEACON_OFFICE_DATA ?= eval-data/danis-office-ble-tracks
EVAL_VENV := .venv-eval
EVAL_PYTHON := $(EVAL_VENV)/bin/python
EVAL_STAMP := $(EVAL_VENV)/.requirements-installed
EVAL_REQUIREMENTS := tools/eval-requirements.txt

$(EVAL_PYTHON):
	@$(PYTHON3) -m venv $(EVAL_VENV) || { rm -rf $(EVAL_VENV); exit 1; }

$(EVAL_STAMP): $(EVAL_REQUIREMENTS) | $(EVAL_PYTHON)
	@$(EVAL_PYTHON) -m pip install -q --disable-pip-version-check -r $(EVAL_REQUIREMENTS)
	@touch $@

eval: apt-deps $(EVAL_STAMP)
	$(RELEASE_BUILD) --product beacon-eval
	@rm -rf .build/eval
	.build/release/beacon-eval --research-data "$(BEACON_RESEARCH_DATA)" --flat-data "$(BEACON_FLAT_DATA)" --office-data "$(BEACON_OFFICE_DATA)" --out .build/eval
	$(EVAL_PYTHON) tools/eval_plots.py .build/eval docs/eval

# make eval-fleet: every fleet run through the real processes: each scene simulated, each gateway's capture
# replayed by `beacon range --gateway` into a real mosquitto on loopback, `beacon locate` consuming
# (tools/eval_fleet.py); then the readings that crossed the broker and locate's lines are checked against the
# process's, and the fleet tables printed (FleetEvaluation). No data files, no plots.
EVAL_FLEET_RUNS := .build/eval-fleet
eval-fleet: apt-deps
	$(RELEASE_BUILD) --product beacon
	$(RELEASE_BUILD) --product beacon-eval
	@rm -rf $(EVAL_FLEET_RUNS) && mkdir -p $(EVAL_FLEET_RUNS)
	.build/release/beacon-eval --flat-data "$(BEACON_FLAT_DATA)" --office-data "$(BEACON_OFFICE_DATA)" --fleet-prepare $(EVAL_FLEET_RUNS)
	$(PYTHON3) tools/eval_fleet.py --beacon .build/release/beacon $(EVAL_FLEET_RUNS)
	.build/release/beacon-eval --flat-data "$(BEACON_FLAT_DATA)" --office-data "$(BEACON_OFFICE_DATA)" --fleet-check $(EVAL_FLEET_RUNS)
	.build/release/beacon-eval --flat-data "$(BEACON_FLAT_DATA)" --office-data "$(BEACON_OFFICE_DATA)" --fleet

# The demo needs the emulated controllers (the tools venv), not the bench venv.
demo: apt-deps $(VENV_STAMP) build
	@tools/demo.sh

clean:
	rm -rf .build $(VENV) $(EVAL_VENV) $(BENCH_VENV) beacon_*.deb

include tests/kernel/kernel.mk
include fuzz/fuzz.mk
include soak/soak.mk
include install.mk
include dist/debian/deb.mk
