# beacon — build, test and demo. GNU make.
#
#   make deps    system packages (apt, only when missing) and the tools venv (.venv)
#   make build   swift build
#   make test    deps + build + swift test, integration tests against emulated controllers included
#   make bench   throughput of the per-advertisement path (release build)
#   make demo    beacon advertises an iBeacon on one emulated controller and ranges it on another
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
# libbluetooth-dev: kernel HCI headers for CHCI; bluez: btmon reads our captures;
# python3-venv: the tools venv.
APT_PACKAGES := libbluetooth-dev bluez python3 python3-venv

.PHONY: deps apt-deps build test bench demo clean

deps: apt-deps $(VENV_STAMP)

apt-deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' "$$package" 2>/dev/null | grep -q '^install ok installed$$' \
	    || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
	  echo "apt-get install:$$missing"; \
	  $$sudo apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

$(VENV_PYTHON):
	@$(PYTHON3) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }

# Reinstalled only when the pinned requirements change.
$(VENV_STAMP): $(REQUIREMENTS) | $(VENV_PYTHON)
	@$(VENV_PYTHON) -m pip install -q --disable-pip-version-check -r $(REQUIREMENTS)
	@touch $@

build:
	swift build

test: deps build
	BEACON_INTEGRATION=1 swift test

bench:
	swift build -c release --product beacon-bench
	.build/release/beacon-bench $(BENCH_SECONDS)

demo: deps build
	@tools/demo.sh

clean:
	rm -rf .build $(VENV)
