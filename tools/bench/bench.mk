# make bench: beacon against a C reference loop, its Python peers and btmon, on the same captures, and
# its live path from a fake controller (tools/bench/bench.py says how each figure is taken).
#
#   make bench                        the comparison tables (release build), a few minutes
#   make bench BENCH_RUNS=9           more runs of beacon and the C loop per capture
#   make bench-quick                  in-process throughput of the per-advertisement path only
#   make bench-quick BENCH_SECONDS=600
#   make bench-instructions           make bench's callgrind figures alone (instructions per report on each
#                                     replay capture and on the live stream; tools/bench/instructions.py),
#                                     a few minutes: they repeat exactly, so one run shows what a change costs
#   make bench-fleet                  beacon locate fusing simulated gateways through a real mosquitto on
#                                     loopback, load after load until it saturates (tools/bench/fleet_bench.py;
#                                     make bench runs it last), about four minutes
#   make bench-fleet BENCH_FLEET_STEPS=50x200,400x200 BENCH_FLEET_HEARING=15

BENCH_VENV := .venv-bench
BENCH_PYTHON := $(BENCH_VENV)/bin/python
BENCH_STAMP := $(BENCH_VENV)/.requirements-installed
BENCH_REQUIREMENTS := tools/bench/requirements.txt
BENCH_OUT := .build/bench
BENCH_CC ?= cc
BENCH_RUNS ?= 7
# Reports the Python peers and btmon read (the first ones of the capture): they are slow.
BENCH_PEER_REPORTS ?= 20000
# valgrind: callgrind counts instructions per report, the figure that repeats on a shared machine;
# binutils: strip, for the copy of beacon it counts.
BENCH_APT_PACKAGES := valgrind binutils

# bench-fleet's loads, GATEWAYSxBEACONS in order (the first is the target row), and the metres within
# which a gateway hears a beacon ('all': every gateway hears every beacon, the target's 10,000 readings/s).
BENCH_FLEET_STEPS ?= 50x200,100x200,200x200,400x200,800x200,1000x400,1000x600
BENCH_FLEET_HEARING ?= all
BENCH_FLEET = $(PYTHON3) tools/bench/fleet_bench.py --beacon .build/release/beacon --steps $(BENCH_FLEET_STEPS) \
	--hearing $(BENCH_FLEET_HEARING) --work $(BENCH_OUT)/fleet

.PHONY: bench bench-quick bench-instructions bench-fleet bench-tools

$(BENCH_PYTHON):
	@$(PYTHON3) -m venv $(BENCH_VENV) || { rm -rf $(BENCH_VENV); exit 1; }

# Reinstalled only when the pinned requirements change.
$(BENCH_STAMP): $(BENCH_REQUIREMENTS) | $(BENCH_PYTHON)
	@$(BENCH_PYTHON) -m pip install -q --disable-pip-version-check -r $(BENCH_REQUIREMENTS)
	@touch $@

$(BENCH_OUT)/%: tools/bench/%.c
	@mkdir -p $(BENCH_OUT)
	$(BENCH_CC) -O2 -Wall -Wextra -o $@ $<

bench-tools: $(BENCH_STAMP) $(BENCH_OUT)/ibeacon_loop $(BENCH_OUT)/fake_controller

# beacon is built as make install builds it (RELEASE_BUILD, install.mk): the binary users run.
bench: apt-deps bench-tools
	@$(call apt_install,$(BENCH_APT_PACKAGES))
	$(RELEASE_BUILD) --product beacon
	$(PYTHON3) tools/bench/bench.py --beacon .build/release/beacon \
	  --loop $(BENCH_OUT)/ibeacon_loop --controller $(BENCH_OUT)/fake_controller --python $(BENCH_PYTHON) \
	  --work $(BENCH_OUT)/captures --runs $(BENCH_RUNS) --peer-reports $(BENCH_PEER_REPORTS)
	$(BENCH_FLEET)

# Needs neither the venv nor the peers: the C loop counts the captures' reports, the fake controller streams.
bench-instructions: apt-deps $(BENCH_OUT)/ibeacon_loop $(BENCH_OUT)/fake_controller
	@$(call apt_install,$(BENCH_APT_PACKAGES))
	$(RELEASE_BUILD) --product beacon
	$(PYTHON3) tools/bench/instructions.py --beacon .build/release/beacon --loop $(BENCH_OUT)/ibeacon_loop \
	  --controller $(BENCH_OUT)/fake_controller --work $(BENCH_OUT)/captures --peer-reports $(BENCH_PEER_REPORTS)

# The broker is Debian's mosquitto (apt-deps); the gateways and the subscriber are the script's own.
bench-fleet: apt-deps
	$(RELEASE_BUILD) --product beacon
	$(BENCH_FLEET)

bench-quick:
	$(RELEASE_BUILD) --product beacon-bench
	.build/release/beacon-bench $(BENCH_SECONDS)
