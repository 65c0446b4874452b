# libFuzzer targets over the decoders, parsers and the range session (include from the top Makefile).
#   make fuzz         every target for FUZZ_SECONDS seconds each (default 60)
#   make fuzz-smoke   every target briefly (FUZZ_SMOKE_RUNS inputs each), for `make test`
#   make fuzz-seeds   regenerate the committed seed corpora in fuzz/corpus/
#   make fuzz-<name>  one target, e.g. make fuzz-btsnoop_reader FUZZ_SECONDS=600
# Crashing inputs land in $(FUZZ_BUILD)/artifacts/; new corpus entries in $(FUZZ_BUILD)/corpus/ (the
# committed seeds in fuzz/corpus/ are only read).

SWIFTC ?= swiftc
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_RUNS ?= 20000
FUZZ_BUILD ?= .build/fuzz
FUZZ_TARGETS := h4_framer hci_event advertising_data beacon_decoders beacon_frames btsnoop_reader transport_spec arguments range_session json_value site_file readings_decoder broker_address survey_path survey_file site_fit calibration_message
# Bounded memory and time per input; -use_value_profile helps with magic numbers and lengths.
FUZZ_OPTIONS ?= -rss_limit_mb=512 -malloc_limit_mb=256 -timeout=5 -max_len=4096 -use_value_profile=1 -print_final_stats=1

# For the fuzz binaries only: the Swift runtime's own crash handler would fight the sanitizer's
# (libFuzzer reports crashes), and a smaller quarantine keeps long runs well under -rss_limit_mb.
FUZZ_ENV := SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=quarantine_size_mb=64

FUZZ_SWIFTFLAGS := -parse-as-library -sanitize=fuzzer,address -O -g -use-ld=lld
FUZZ_CORE_SOURCES := $(sort $(wildcard Sources/BeaconCore/*/*.swift))
FUZZ_CLI_SOURCES := $(addprefix Sources/BeaconCLI/,ArgumentParser.swift CommandHelp.swift CommonOptions.swift \
	RangeOptions.swift ScanOptions.swift AdvertiseOptions.swift ExitCode.swift EstimatorOptions.swift MQTTOptions.swift \
	BrokerOptions.swift TextWrapping.swift)
# The pure part of BeaconMQTT, for the options range reads (--mqtt, --room); the publisher needs libmosquitto.
FUZZ_MQTT_SOURCES := $(addprefix Sources/BeaconMQTT/,BrokerAddress.swift MQTTMessage.swift MQTTText.swift MonitorTopics.swift GatewayTopics.swift ScanTopics.swift PublishBounds.swift)
FUZZ_MQTT_LIB := $(FUZZ_BUILD)/lib/libBeaconMQTT.a
# The part of BeaconTransport argument checking uses (which file a path names, a password file), as a module of its own.
FUZZ_TRANSPORT_SOURCES := $(addprefix Sources/BeaconTransport/,FileIdentity.swift InputFile.swift SystemError.swift)
FUZZ_TRANSPORT_LIB := $(FUZZ_BUILD)/lib/libBeaconTransport.a
FUZZ_CORE_LIB := $(FUZZ_BUILD)/lib/libBeaconCore.a

# The target file of each fuzz target (one file per target).
fuzz_source_h4_framer := fuzz/FuzzH4Framer.swift
fuzz_source_hci_event := fuzz/FuzzHCIEvent.swift
fuzz_source_advertising_data := fuzz/FuzzAdvertisingData.swift
fuzz_source_beacon_decoders := fuzz/FuzzBeaconDecoders.swift
fuzz_source_beacon_frames := fuzz/FuzzBeaconFrames.swift
fuzz_source_btsnoop_reader := fuzz/FuzzBtsnoopReader.swift
fuzz_source_transport_spec := fuzz/FuzzTransportSpec.swift
fuzz_source_arguments := fuzz/FuzzArguments.swift $(FUZZ_CLI_SOURCES)
# Instrumented libraries a target links besides BeaconCore.
fuzz_libs_arguments := $(FUZZ_MQTT_LIB) $(FUZZ_TRANSPORT_LIB)
fuzz_source_range_session := fuzz/FuzzRangeSession.swift
fuzz_source_json_value := fuzz/FuzzJSONValue.swift
fuzz_source_site_file := fuzz/FuzzSiteFile.swift
fuzz_source_readings_decoder := fuzz/FuzzReadingsDecoder.swift
fuzz_source_survey_file := fuzz/FuzzSurveyFile.swift
fuzz_source_broker_address := fuzz/FuzzBrokerAddress.swift
fuzz_libs_broker_address := $(FUZZ_MQTT_LIB)
fuzz_source_survey_path := fuzz/FuzzSurveyPath.swift
fuzz_source_site_fit := fuzz/FuzzSiteFit.swift
fuzz_source_calibration_message := fuzz/FuzzCalibrationMessage.swift

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-seeds $(addprefix fuzz-,$(FUZZ_TARGETS))

# BeaconCore, instrumented, built once as a module every target imports.
$(FUZZ_CORE_LIB): $(FUZZ_CORE_SOURCES)
	@mkdir -p $(FUZZ_BUILD)/lib && rm -f $@
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -module-name BeaconCore -emit-module -emit-module-path $(FUZZ_BUILD)/lib/BeaconCore.swiftmodule \
		-emit-library -static -o $@ $(FUZZ_CORE_SOURCES) 2>&1 | grep -v 'Cannot export local symbol' || true
	@test -f $@

$(FUZZ_MQTT_LIB): $(FUZZ_CORE_LIB) $(FUZZ_MQTT_SOURCES)
	@mkdir -p $(FUZZ_BUILD)/lib && rm -f $@
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -module-name BeaconMQTT -I $(FUZZ_BUILD)/lib -emit-module \
		-emit-module-path $(FUZZ_BUILD)/lib/BeaconMQTT.swiftmodule -emit-library -static -o $@ $(FUZZ_MQTT_SOURCES) \
		2>&1 | grep -v 'Cannot export local symbol' || true
	@test -f $@

$(FUZZ_TRANSPORT_LIB): $(FUZZ_TRANSPORT_SOURCES)
	@mkdir -p $(FUZZ_BUILD)/lib && rm -f $@
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -module-name BeaconTransport -emit-module \
		-emit-module-path $(FUZZ_BUILD)/lib/BeaconTransport.swiftmodule -emit-library -static -o $@ $(FUZZ_TRANSPORT_SOURCES) \
		2>&1 | grep -v 'Cannot export local symbol' || true
	@test -f $@

# One link rule per target: the shared support file, the target file(s), the instrumented BeaconCore
# (and the target's other instrumented libraries).
define fuzz_binary_rule
$(FUZZ_BUILD)/bin/fuzz-$(1): $(FUZZ_CORE_LIB) $(fuzz_libs_$(1)) fuzz/FuzzSupport.swift $(fuzz_source_$(1))
	@mkdir -p $(FUZZ_BUILD)/bin && rm -f $$@
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -module-name Fuzz -I $(FUZZ_BUILD)/lib fuzz/FuzzSupport.swift $(fuzz_source_$(1)) \
		$(fuzz_libs_$(1)) $(FUZZ_CORE_LIB) -o $$@ 2>&1 | grep -v 'Cannot export local symbol' || true
	@test -x $$@
endef
$(foreach target,$(FUZZ_TARGETS),$(eval $(call fuzz_binary_rule,$(target))))

fuzz-build: $(addprefix $(FUZZ_BUILD)/bin/fuzz-,$(FUZZ_TARGETS))

# $(call fuzz_run,target,limit flags)
define fuzz_run
	@mkdir -p $(FUZZ_BUILD)/corpus/$(1) $(FUZZ_BUILD)/artifacts
	$(FUZZ_ENV) $(FUZZ_BUILD)/bin/fuzz-$(1) $(FUZZ_OPTIONS) $(2) -artifact_prefix=$(FUZZ_BUILD)/artifacts/$(1)- \
		$(FUZZ_BUILD)/corpus/$(1) fuzz/corpus/$(1)
endef

$(addprefix fuzz-,$(FUZZ_TARGETS)): fuzz-%: $(FUZZ_BUILD)/bin/fuzz-%
	$(call fuzz_run,$*,-max_total_time=$(FUZZ_SECONDS))

fuzz: fuzz-build
	@for target in $(FUZZ_TARGETS); do \
		$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) fuzz-$$target FUZZ_SECONDS=$(FUZZ_SECONDS) || exit 1; \
	done

fuzz-smoke: fuzz-build
	@mkdir -p $(FUZZ_BUILD)/artifacts
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/smoke/$$target; \
		if $(FUZZ_ENV) $(FUZZ_BUILD)/bin/fuzz-$$target $(FUZZ_OPTIONS) -runs=$(FUZZ_SMOKE_RUNS) -max_total_time=30 \
			-artifact_prefix=$(FUZZ_BUILD)/artifacts/$$target- $(FUZZ_BUILD)/smoke/$$target fuzz/corpus/$$target \
			> $(FUZZ_BUILD)/smoke/$$target.log 2>&1; then \
			echo "fuzz-smoke $$target: $$(grep -E '^Done [0-9]+ runs' $(FUZZ_BUILD)/smoke/$$target.log)"; \
		else \
			tail -n 40 $(FUZZ_BUILD)/smoke/$$target.log; echo "fuzz-smoke $$target: FAILED"; exit 1; \
		fi; \
	done

fuzz-seeds:
	@mkdir -p $(FUZZ_BUILD)/seeds
	$(SWIFTC) -parse-as-library -module-name Seeds $(FUZZ_CORE_SOURCES) fuzz/seeds/GenerateSeeds.swift -o $(FUZZ_BUILD)/seeds/generate
	$(FUZZ_BUILD)/seeds/generate
