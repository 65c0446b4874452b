import BeaconCore

// Command-line parsing for `range`, `scan` and `advertise` (compiled with the CLI's option files, so the
// internal parser is called directly and no transport is ever opened). The input is argv split on NUL;
// an argument `BEACON_HCI=…` becomes the environment. Usage errors are fine; traps and options that
// break their documented bounds are not.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    var arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    var environment: [String: String] = [:]
    arguments.removeAll { argument in
        guard argument.hasPrefix("BEACON_HCI=") else { return false }
        environment["BEACON_HCI"] = String(argument.dropFirst("BEACON_HCI=".count))
        return true
    }
    let advertise = arguments.first == "advertise"
    let scan = arguments.first == "scan"
    if arguments.first == "advertise" || arguments.first == "range" || scan { arguments.removeFirst() }
    let help = advertise ? AdvertiseOptions.help : scan ? ScanOptions.help : RangeOptions.help
    do {
        let parsed = try ParsedOptions.parse(arguments, specs: help.options)
        if parsed.helpRequested {
            require(help.render().contains("USAGE: "), "help without usage")
            return 0
        }
        if scan {
            let options = try ScanOptions(parsed, environment: environment)
            require(options.interval >= Micros.milliseconds(10), "interval out of bounds")
            if let floor = options.filter.minimumRSSI { require((-127...20).contains(floor), "--min-rssi out of bounds") }
            check(options.common)
        } else if advertise {
            let options = try AdvertiseOptions(parsed, environment: environment)
            require(AdvertisingPlan.intervalSlotRange.contains(options.plan.intervalSlots), "interval outside 20ms...10.24s")
            if case .btsnoop = options.common.transport { require(false, "advertising on a capture") }
            require(!(options.forceLegacy && options.plan.txPower != nil), "--tx-power with --legacy")
            // Every format's data must fit a legacy advertisement (an Eddystone-URL of any --url included).
            require(options.plan.advertisingData.count <= 31, "advertising data longer than 31 bytes")
            if case let .eddystone(beacon) = options.plan.beacon {
                require(EddystonePayload.txPowerAt0mRange.contains(Int(beacon.txPowerAt0m)), "Eddystone power at 0 m out of range")
            }
            check(options.common)
        } else {
            let options = try RangeOptions(parsed, environment: environment)
            require(!options.regions.isEmpty, "no region")
            require(Set(options.regions).count == options.regions.count, "a region listed twice")
            require(options.interval >= Micros.milliseconds(10) && options.exitAfter.value > 0, "interval or exit-after out of bounds")
            require(options.scan.window <= options.scan.interval && options.scan.window >= 4 && options.scan.interval <= 0x4000,
                    "scan window/interval out of bounds")
            check(options.common)
        }
    } catch {
        // Messages quote the argument as given (control characters included, as other tools do).
        require(!error.message.isEmpty, "empty usage error message")
    }
    return 0
}

func check(_ common: CommonOptions) {
    require((try? TransportSpec.parse(common.transport.description)) == common.transport, "transport does not round-trip")
    if let duration = common.duration { require(duration.value > 0, "non-positive duration") }
    if common.captureIndex != nil, case .btsnoop = common.transport {} else {
        require(common.captureIndex == nil, "--index without a capture")
    }
}
