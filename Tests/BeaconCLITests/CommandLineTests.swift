@testable import BeaconCLI
import BeaconCore
import BeaconTransport
import Testing

let appleUUID = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

@Suite("beacon command line")
struct CommandLineTests {
    @Test("beacon range --help prints OVERVIEW, USAGE, OPTIONS with defaults and the exit codes, exit 0")
    func rangeHelp() {
        let io = CapturedConsole()
        #expect(io.run(["range", "--help"]) == 0)
        let text = io.stdout.joined(separator: "\n")
        #expect(text.hasPrefix("OVERVIEW: "))
        #expect(text.contains("\nUSAGE: beacon range --uuid <uuid>"))
        #expect(text.contains("\nOPTIONS:\n"))
        #expect(text.contains("(default: 10s)"))
        #expect(text.contains("(default: $BEACON_HCI, else hci0)"))
        #expect(text.contains("  64  usage error"))
        #expect(io.stderr.isEmpty)
    }

    @Test("beacon help advertise prints the advertise help")
    func helpSubcommand() {
        let io = CapturedConsole()
        #expect(io.run(["help", "advertise"]) == 0)
        #expect(io.stdout.joined().contains("USAGE: beacon advertise --uuid <uuid> --major <major> --minor <minor>"))
        #expect(io.stdout.joined().contains("(default: -59)"))
    }

    @Test("no subcommand and an unknown one are usage errors")
    func badSubcommands() {
        let io = CapturedConsole()
        #expect(io.run([]) == 64)
        #expect(io.stderr.first == "Error: Missing expected subcommand")
        let io2 = CapturedConsole()
        #expect(io2.run(["monitor"]) == 64)
        #expect(io2.stderr == ["Error: Unknown subcommand 'monitor'", "Usage: beacon <subcommand> [<options>]"])
    }

    @Test("bad range arguments: Error line, Usage line, exit 64", arguments: [
        ([], "Missing expected argument '--uuid <uuid>' (or '--region')"),
        (["--uuid", "not-a-uuid"], "Invalid value 'not-a-uuid' for '--uuid <uuid>'"),
        (["--uuid", appleUUID, "--minor", "2"], "'--minor' needs '--major'"),
        (["--major", "1"], "'--major', '--minor' and '--name' need '--uuid'"),
        (["--uuid", appleUUID, "--major", "65536"], "Invalid value '65536' for '--major <major>'"),
        (["--uuid", appleUUID, "--major", "-1"], "Invalid value '-1' for '--major <major>'"),
        (["--uuid", appleUUID, "--exit-after", "0"], "Invalid value '0' for '--exit-after <duration>'"),
        (["--uuid", appleUUID, "--interval", "soon"], "Invalid value 'soon' for '--interval <duration>'"),
        (["--uuid", appleUUID, "--interval", "1ms"], "'--interval' must be at least 10ms"),
        (["--uuid", appleUUID, "--scan-interval", "1ms"], "expected 2.5ms...10.24s"),
        (["--uuid", appleUUID, "--scan-interval", "50ms", "--scan-window", "60ms"], "must not exceed"),
        (["--uuid", appleUUID, "--phy", "2m"], "Invalid value '2m' for '--phy <phys>': expected 1m, coded or 1m,coded"),
        (["--uuid", appleUUID, "--phy", "1m,1m"], "Invalid value '1m,1m' for '--phy <phys>'"),
        (["--uuid", appleUUID, "--phy", ""], "for '--phy <phys>'"),
        (["--uuid", appleUUID, "--region", "\(appleUUID):1:2:3"], "has more than UUID:MAJOR:MINOR"),
        (["--uuid", appleUUID, "--region", "\(appleUUID):x"], "major 'x' is not an integer"),
        (["--uuid", appleUUID, "--hci", "bogus"], "Invalid controller 'bogus'"),
        (["--uuid", appleUUID, "--index", "1"], "'--index' applies only to a btsnoop: capture"),
        (["--uuid", appleUUID, "--duration", "-3"], "Invalid value '-3' for '--duration <duration>'"),
        (["--name", "hall"], "need '--uuid'"),
        (["--uuid", appleUUID, "--name", "a/b"], "Invalid value 'a/b' for '--name <name>'"),
        (["--uuid", appleUUID, "--region", "=\(appleUUID)"], "region name '' must be"),
        (["--uuid", appleUUID, "--region", "a=\(appleUUID):1", "--region", "a=\(appleUUID):2"], "Region name 'a' is given to two different regions"),
        (["--uuid", appleUUID, "--rssi-filter", "lowpass"], "Invalid value 'lowpass' for '--rssi-filter <filter>'"),
        (["--uuid", appleUUID, "--rssi-filter", "median:0"], "Invalid value 'median:0' for '--rssi-filter <filter>'"),
        (["--uuid", appleUUID, "--distance-model", "log:9"], "Invalid value 'log:9' for '--distance-model <model>'"),
        (["--uuid", appleUUID, "--path-loss-exponent", "0.4"], "Invalid value '0.4' for '--path-loss-exponent <n>': expected a number in 0.5...6"),
        (["--uuid", appleUUID, "--path-loss-exponent", "2", "--distance-model", "room"], "cannot be combined"),
        (["--uuid", appleUUID, "--rssi-offset", "31"], "Invalid value '31' for '--rssi-offset <dB>'"),
        (["--uuid", appleUUID, "--measured-power", "0"], "Invalid value '0' for '--measured-power <dBm>'"),
        (["--uuid", appleUUID, "--measured-power", "-59.5"], "expected a whole number of dBm"),
        (["--uuid", appleUUID, "--tracking-age", "soon"], "Invalid value 'soon' for '--tracking-age <duration>'"),
        (["--uuid", appleUUID, "--hysteresis", "2"], "Invalid value '2' for '--hysteresis <fraction>'"),
    ])
    func rangeUsageErrors(arguments: [String], fragment: String) {
        let io = CapturedConsole()
        #expect(io.run(["range"] + arguments) == 64)
        #expect(io.stderr.count == 2)
        #expect(io.stderr.first?.hasPrefix("Error: ") == true)
        #expect(io.stderr.first?.contains(fragment) == true, "\(io.stderr)")
        #expect(io.stderr.last?.hasPrefix("Usage: beacon range") == true)
        #expect(io.stdout.isEmpty)
    }

    @Test("a bad transport spec lists the valid forms")
    func badSpecListsForms() {
        let io = CapturedConsole()
        #expect(io.run(["range", "--uuid", appleUUID, "--hci", "tcp:nohost"]) == 64)
        let message = io.stderr.first ?? ""
        for form in ["hciN", "hci-user:N", "tcp:HOST:PORT", "unix:PATH", "serial:DEVICE", "btsnoop:FILE"] {
            #expect(message.contains(form), "\(message)")
        }
    }

    @Test("bad advertise arguments: Error line, Usage line, exit 64", arguments: [
        ([], "Missing expected argument '--uuid <uuid>'"),
        (["--uuid", appleUUID], "Missing expected argument '--major <major>'"),
        (["--uuid", appleUUID, "--major", "1"], "Missing expected argument '--minor <minor>'"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "70000"], "Invalid value '70000' for '--minor <minor>'"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--measured-power", "21"], "expected an integer in -127...20"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--measured-power", "-128"], "expected an integer in -127...20"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--interval", "19ms"], "expected 20ms...10.24s"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--interval", "10.25s"], "expected 20ms...10.24s"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--tx-power", "30"], "expected an integer in -127...20"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--tx-power", "0", "--legacy"], "cannot be combined with '--legacy'"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--phy", "coded", "--legacy"],
         "'--phy coded' needs extended advertising (legacy PDUs are LE 1M only); it cannot be combined with '--legacy'"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--phy", "1m,coded"], "Invalid value '1m,coded' for '--phy <phy>': expected 1m or coded"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--hci", "btsnoop:/tmp/x"], "Cannot advertise on a btsnoop: capture"),
        (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--index", "0"], "Unknown option '--index'"),
    ])
    func advertiseUsageErrors(arguments: [String], fragment: String) {
        let io = CapturedConsole()
        #expect(io.run(["advertise"] + arguments) == 64)
        #expect(io.stderr.first?.contains(fragment) == true, "\(io.stderr)")
        #expect(io.stderr.last?.hasPrefix("Usage: beacon advertise") == true)
    }
}

@Suite("Range options")
struct RangeOptionsTests {
    func options(_ arguments: [String], environment: [String: String] = [:]) throws -> RangeOptions {
        try RangeOptions(ParsedOptions.parse(arguments, specs: RangeOptions.help.options), environment: environment)
    }

    @Test("absent major and minor are wildcards; 0 is a real value")
    func wildcardAndZero() throws {
        let uuid = try #require(BeaconUUID(appleUUID))
        #expect(try options(["--uuid", appleUUID]).regions == [BeaconRegion(uuid: uuid)])
        #expect(try options(["--uuid", appleUUID, "--major", "0"]).regions == [BeaconRegion(uuid: uuid, major: 0)])
        #expect(try options(["--uuid", appleUUID, "--major", "0", "--minor", "0"]).regions == [BeaconRegion(uuid: uuid, major: 0, minor: 0)])
    }

    @Test("--region adds regions; a duplicate is monitored once")
    func severalRegions() throws {
        let uuid = try #require(BeaconUUID(appleUUID))
        let other = "00000000-0000-0000-0000-000000000001"
        let parsed = try options(["--uuid", appleUUID, "--region", "\(other):7", "--region", appleUUID.lowercased()])
        #expect(parsed.regions == [BeaconRegion(uuid: uuid), BeaconRegion(uuid: try #require(BeaconUUID(other)), major: 7)])
    }

    @Test("defaults: hci0, exit after 10 s, ranging every 1 s, passive 100 ms scanning")
    func defaults() throws {
        let parsed = try options(["--uuid", appleUUID])
        #expect(parsed.common.transport == .kernelRaw(0))
        #expect(parsed.exitAfter == .seconds(10))
        #expect(parsed.interval == .seconds(1))
        #expect(parsed.scan == ScanParameters(active: false, interval: 160, window: 160))
        #expect(parsed.phys == nil)
        #expect(parsed.common.duration == nil)
    }

    @Test("BEACON_HCI chooses the controller unless --hci is given")
    func environmentController() throws {
        #expect(try options(["--uuid", appleUUID], environment: ["BEACON_HCI": "tcp:127.0.0.1:9000"]).common.transport == .tcp(host: "127.0.0.1", port: 9000))
        #expect(try options(["--uuid", appleUUID, "--hci", "hci2"], environment: ["BEACON_HCI": "tcp:127.0.0.1:9000"]).common.transport == .kernelRaw(2))
    }

    @Test("durations and scan settings are converted")
    func conversions() throws {
        let parsed = try options(["--uuid", appleUUID, "--exit-after", "2s", "--interval", "500ms", "--duration", "1m",
                                  "--active", "--scan-interval", "50ms", "--scan-window", "25ms"])
        #expect(parsed.exitAfter == .seconds(2))
        #expect(parsed.interval == .milliseconds(500))
        #expect(parsed.common.duration == .seconds(60))
        #expect(parsed.scan == ScanParameters(active: true, interval: 80, window: 40))
    }

    @Test("--phy names the PHYs to scan, in any order and case")
    func phys() throws {
        #expect(try options(["--uuid", appleUUID, "--phy", "coded"]).phys == .leCoded)
        #expect(try options(["--uuid", appleUUID, "--phy", "Coded,1m"]).phys == [.le1M, .leCoded])
        let scan = try ScanOptions(ParsedOptions.parse(["--phy", "1m"], specs: ScanOptions.help.options), environment: [:])
        #expect(scan.phys == .le1M)
    }
}

@Suite("Advertise options")
struct AdvertiseOptionsTests {
    func options(_ arguments: [String]) throws -> AdvertiseOptions {
        try AdvertiseOptions(ParsedOptions.parse(arguments, specs: AdvertiseOptions.help.options), environment: [:])
    }

    @Test("defaults: -59 dBm, 100 ms, non-connectable, controller's choice of power, extended when available")
    func defaults() throws {
        let parsed = try options(["--uuid", appleUUID, "--major", "1", "--minor", "2"])
        guard case let .iBeacon(beacon) = parsed.plan.beacon else { Issue.record("not an iBeacon"); return }
        #expect(beacon.measuredPower == -59)
        #expect(parsed.plan.intervalSlots == 160)
        #expect(parsed.plan.connectable == false)
        #expect(parsed.plan.txPower == nil)
        #expect(parsed.forceLegacy == false)
        #expect(parsed.plan.phy == .le1M)
        #expect(Hex.encode(parsed.plan.advertisingData) == "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5")
    }

    @Test("--phy coded plans extended PDUs on LE Coded")
    func coded() throws {
        let parsed = try options(["--uuid", appleUUID, "--major", "1", "--minor", "2", "--phy", "CODED"])
        #expect(parsed.plan.phy == .leCoded)
        #expect(parsed.plan.extendedProperties == 0x0000)
        #expect(try options(["--uuid", appleUUID, "--major", "1", "--minor", "2", "--phy", "1m"]).plan.phy == .le1M)
    }

    @Test("the 100 ms floor applies only to non-connectable advertising on pre-5.0 controllers")
    func legacyFloor() throws {
        let fast = try options(["--uuid", appleUUID, "--major", "1", "--minor", "2", "--interval", "20ms"])
        #expect(fast.plan.intervalSlots == 32)
        #expect(fast.plan.violatesLegacyFloor(hciVersion: 8))
        #expect(!fast.plan.violatesLegacyFloor(hciVersion: 9))
        let connectable = try options(["--uuid", appleUUID, "--major", "1", "--minor", "2", "--interval", "20ms", "--connectable"])
        #expect(!connectable.plan.violatesLegacyFloor(hciVersion: 6))
        #expect(connectable.plan.extendedProperties == 0x0013)
        #expect(fast.plan.extendedProperties == 0x0010)
    }
}

@Suite("beacon devices")
struct DevicesCommandTests {
    static let controllers = [
        ControllerListing(index: 0, name: "hci0", address: DeviceAddress(value: 0xF0F1_F2F3_F401), isUp: true, bus: 3, deviceType: 0),
        ControllerListing(index: 1, name: "hci1", address: DeviceAddress(value: 0xF0F1_F2F3_F402), isUp: false, bus: 1, deviceType: 0),
    ]

    @Test func oneLinePerController() {
        let io = CapturedConsole()
        let code = DevicesCommand.run(console: io.console, capabilities: ProcessCapabilities(netAdmin: true, netRaw: true),
                                      now: { Timestamp(microseconds: 1_795_953_600_000_000) }, list: { Self.controllers })
        #expect(code == .success)
        #expect(io.stdout == [
            #"{"event":"device","time":"2026-11-29T12:00:00.000Z","name":"hci0","index":0,"address":"F0:F1:F2:F3:F4:01","up":true,"bus":"UART","type":"primary","channels":{"raw":true,"user":false,"mgmt":true,"monitor":true}}"#,
            #"{"event":"device","time":"2026-11-29T12:00:00.000Z","name":"hci1","index":1,"address":"F0:F1:F2:F3:F4:02","up":false,"bus":"USB","type":"primary","channels":{"raw":true,"user":true,"mgmt":false,"monitor":true}}"#,
        ])
        #expect(io.stderr.isEmpty)
    }

    @Test func unknownCapabilitiesClaimNothing() {
        let io = CapturedConsole()
        _ = DevicesCommand.run(console: io.console, capabilities: nil, now: { Timestamp(microseconds: 0) },
                               list: { Self.controllers })
        #expect(io.stdout.allSatisfy { $0.hasSuffix(#""channels":{"raw":false,"user":false,"mgmt":false,"monitor":false}}"#) })
        #expect(io.stdout.count == 2)
    }

    @Test func noControllersIsAWarning() {
        let io = CapturedConsole()
        #expect(DevicesCommand.run(console: io.console, capabilities: nil, now: { Timestamp(microseconds: 0) }, list: { [] }) == .success)
        #expect(io.stdout.isEmpty)
        #expect(io.stderr == ["Warning: the kernel has Bluetooth support but no controllers"])
    }

    @Test func listFailureIsOneLineAndItsExitCode() {
        let io = CapturedConsole()
        let code = DevicesCommand.run(console: io.console, capabilities: nil, now: { Timestamp(microseconds: 0) },
                                      list: { () throws(TransportError) in throw TransportError(.permission, "devices: not permitted") })
        #expect(code == .noPermission)
        #expect(io.stderr == ["Error: devices: not permitted"])
    }

    /// This machine's kernel has no Bluetooth (the kernel rig covers real controllers).
    @Test(.enabled(if: !kernelHasBluetooth))
    func withoutBluetoothInTheKernel() {
        let io = CapturedConsole()
        #expect(io.run(["devices"]) == 69)
        #expect(io.stdout.isEmpty)
        #expect(io.stderr == ["Error: devices: this kernel has no Bluetooth support (AF_BLUETOOTH unavailable: CONFIG_BT off "
            + "or the bluetooth module missing); use tcp:, unix:, serial: or btsnoop: instead"])
    }

    @Test func helpAndOverview() {
        let io = CapturedConsole()
        #expect(io.run(["devices", "--help"]) == 0)
        #expect(io.stdout.joined().contains("USAGE: beacon devices"))
        let io2 = CapturedConsole()
        #expect(io2.run(["--help"]) == 0)
        #expect(io2.stdout.joined().contains("  devices  "))
        let io3 = CapturedConsole()
        #expect(io3.run(["devices", "--hci", "hci0"]) == 64)
        #expect(io3.stderr == ["Error: Unknown option '--hci'", "Usage: beacon devices"])
    }
}

/// Whether this kernel has Bluetooth at all: probed with the same call `beacon devices` makes first.
var kernelHasBluetooth: Bool {
    do {
        _ = try KernelControllers.list()
        return true
    } catch {
        return error.category != .unavailable || !error.message.contains("AF_BLUETOOTH")
    }
}
