# Soak: replay a simulated day of churning beacons through the release binary and check that memory
# stays bounded (beacons long gone are forgotten) and that every expected line is printed.
#   make soak                                   50,000 beacons over 24 h, peak RSS under 64 MiB
#   make soak SOAK_BEACONS=5000 SOAK_SECONDS=3600 SOAK_RSS_LIMIT_MB=48
# The capture (about 1 GB for the default day) is written to a temporary directory and removed after.

SOAK_BEACONS ?= 50000
SOAK_SECONDS ?= 86400
SOAK_RSS_LIMIT_MB ?= 64
SOAK_UUID := E2C56DB5-DFFB-48D2-B060-D0F5A71096E0

.PHONY: soak
soak: apt-deps
	$(RELEASE_BUILD) --product beacon
	$(RELEASE_BUILD) --product beacon-soak
	@set -eu; \
	dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	capture="$$dir/day.btsnoop"; \
	echo "soak: writing $(SOAK_BEACONS) beacons over $(SOAK_SECONDS) s of air"; \
	summary=$$(.build/release/beacon-soak "$$capture" $(SOAK_BEACONS) $(SOAK_SECONDS)); \
	echo "soak: $$summary"; \
	packets=$$(echo "$$summary" | sed -n 's/.*packets=\([0-9]*\).*/\1/p'); \
	bytes=$$(echo "$$summary" | sed -n 's/.*bytes=\([0-9]*\).*/\1/p'); \
	expected=$$(echo "$$summary" | sed -n 's/.*expected_lines=\([0-9]*\).*/\1/p'); \
	start=$$(date +%s%N); \
	/usr/bin/time -f '%M %e' -o "$$dir/time" .build/release/beacon range --hci "btsnoop:$$capture" --uuid $(SOAK_UUID) \
		> "$$dir/out.jsonl" 2> "$$dir/err"; \
	end=$$(date +%s%N); \
	rss_kb=$$(cut -d' ' -f1 "$$dir/time"); \
	lines=$$(wc -l < "$$dir/out.jsonl"); \
	ns=$$((end - start)); \
	echo "soak: $$lines lines (expected $$expected), peak RSS $$((rss_kb / 1024)) MiB (limit $(SOAK_RSS_LIMIT_MB) MiB)"; \
	echo "soak: replay $$packets packets in $$((ns / 1000000)) ms = $$((packets * 1000 / (ns / 1000000 + 1))) packets/s, $$((bytes / (ns / 1000 + 1))) MB/s"; \
	if [ -s "$$dir/err" ]; then echo "soak: unexpected stderr:"; head -5 "$$dir/err"; exit 1; fi; \
	test "$$lines" -eq "$$expected" || { echo "soak: FAILED: line count"; exit 1; }; \
	test "$$rss_kb" -le $$(( $(SOAK_RSS_LIMIT_MB) * 1024 )) || { echo "soak: FAILED: peak RSS"; exit 1; }; \
	echo "soak: passed"
