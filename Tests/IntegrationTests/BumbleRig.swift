import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How one emulated controller is reached.
enum ControllerLink: String, Sendable, CustomStringConvertible {
    /// A listening TCP socket on 127.0.0.1 with a free port.
    case tcp
    /// A listening unix-domain socket in the rig's scratch directory.
    case unix
    /// A pseudo-terminal (beacon opens it as `serial:PATH`).
    case pty

    var description: String { rawValue }
}

/// Emulated LE controllers (tools/bumble_controllers.py) on one virtual radio,
/// plus bumble's own iBeacon advertiser on any of them. Every test starts its
/// own rig, so tests run in parallel without sharing radio traffic.
final class BumbleRig: Sendable {
    /// Beacon transport specs of the controllers, in order (`tcp:H:P`, `unix:PATH`, `serial:PATH`).
    let specs: [String]
    /// Private directory for sockets, ptys and captures; removed by `stop()`.
    let scratch: URL
    private let controllers: ChildProcess
    private let helpers = Mutex<[ChildProcess]>([])

    private init(specs: [String], scratch: URL, controllers: ChildProcess) {
        self.specs = specs
        self.scratch = scratch
        self.controllers = controllers
    }

    /// Starts one controller per entry of `links` and waits (bounded) for READY.
    /// With `extended`, every controller lists the LE extended advertising and
    /// scanning commands as supported (bumble implements them but leaves them
    /// out of its bitmap), so beacon takes its extended paths. With `codedPHY` false, their LE features
    /// lack the LE Coded PHY (bumble lists it by default).
    static func start(_ links: [ControllerLink] = [.tcp, .tcp], extended: Bool = false,
                      codedPHY: Bool = true) async throws -> BumbleRig {
        guard FileManager.default.isExecutableFile(atPath: ProjectPaths.python) else {
            throw ChildProcessError(description: "no \(ProjectPaths.python); run `make deps`")
        }
        let scratch = try ProjectPaths.makeScratchDirectory()
        let arguments = links.enumerated().map { index, link -> String in
            switch link {
            case .tcp: "tcp"
            case .unix: "unix:" + scratch.appendingPathComponent("c\(index).sock").path
            case .pty: "pty:" + scratch.appendingPathComponent("c\(index).tty").path
            }
        }
        let controllers = try ChildProcess(
            name: "bumble_controllers",
            executable: ProjectPaths.python,
            arguments: [ProjectPaths.tool("bumble_controllers.py")] + (extended ? ["--extended"] : [])
                + (codedPHY ? [] : ["--without-coded-phy"]) + arguments,
            input: .heldOpen,
            limit: HangGuard.processLimit)
        do {
            let ready = try await controllers.waitForLine(within: HangGuard.startUp, "READY") { $0 == "READY" }
            var specs = [String](repeating: "", count: links.count)
            for line in controllers.stdoutLines.prefix(ready.index) {
                let fields = line.split(separator: " ")
                guard fields.count == 3, fields[0] == "CONTROLLER", let index = Int(fields[1]),
                      specs.indices.contains(index)
                else { throw controllers.failure("unexpected line \(line)") }
                specs[index] = String(fields[2])
            }
            if specs.contains("") { throw controllers.failure("READY before every CONTROLLER line") }
            return BumbleRig(specs: specs, scratch: scratch, controllers: controllers)
        } catch {
            await controllers.stop()
            do {
                try FileManager.default.removeItem(at: scratch)
            } catch {
                // Left in /tmp; the start-up error below is what matters.
            }
            throw error
        }
    }

    /// Runs `body` with a fresh rig (holding an emulator slot) and always stops the rig afterwards.
    static func with<T>(
        _ links: [ControllerLink] = [.tcp, .tcp],
        extended: Bool = false,
        codedPHY: Bool = true,
        _ body: (BumbleRig) async throws -> T
    ) async throws -> T {
        try await EmulatorSlots.shared.run {
            let rig = try await start(links, extended: extended, codedPHY: codedPHY)
            do {
                let result = try await body(rig)
                await rig.stop()
                return result
            } catch {
                await rig.stop()
                throw error
            }
        }
    }

    /// The same controller as a bumble transport spec, for the reference tools.
    func bumbleSpec(_ index: Int) -> String {
        let spec = specs[index]
        if spec.hasPrefix("tcp:") { return "tcp-client:" + spec.dropFirst("tcp:".count) }
        return spec // unix:PATH and serial:PATH mean the same to bumble
    }

    /// Starts bumble's iBeacon advertiser on controller `index` and waits until
    /// it reports that advertising is on. Stop it with `ChildProcess.stop()`.
    func advertise(
        on index: Int,
        uuid: String,
        major: Int,
        minor: Int,
        measuredPower: Int = -59
    ) async throws -> ChildProcess {
        let advertiser = try ChildProcess(
            name: "bumble_beacon advertise",
            executable: ProjectPaths.python,
            arguments: [
                ProjectPaths.tool("bumble_beacon.py"), "advertise",
                "--transport", bumbleSpec(index),
                "--uuid", uuid, "--major", String(major), "--minor", String(minor),
                "--power", String(measuredPower),
            ],
            input: .heldOpen,
            limit: HangGuard.processLimit)
        helpers.withLock { $0.append(advertiser) }
        try await advertiser.waitForLine(within: HangGuard.startUp, "advertising started") {
            $0.contains(#""event":"advertising""#)
        }
        return advertiser
    }

    /// Runs bumble's own scanner on controller `index` until it has heard `count` advertisements and
    /// returns them, in order. Stops after `HangGuard.step` of scanning whatever it heard, so a caller
    /// that finds fewer than `count` knows nothing more was coming.
    func scan(on index: Int, count: Int) async throws -> [ScannedAdvertisement] {
        try await scan(on: index, ["--count", String(count), "--duration", String(HangGuard.step.components.seconds)])
    }

    /// Runs bumble's own scanner on controller `index` for `seconds` and returns the advertisements it
    /// heard, in order. Only for checking that something is not heard: how many advertisements a span
    /// of time brings depends on how busy the machine is.
    func scan(on index: Int, seconds: Double) async throws -> [ScannedAdvertisement] {
        try await scan(on: index, ["--duration", String(seconds)])
    }

    private func scan(on index: Int, _ options: [String]) async throws -> [ScannedAdvertisement] {
        let scanner = try ChildProcess(
            name: "bumble_beacon scan",
            executable: ProjectPaths.python,
            arguments: [ProjectPaths.tool("bumble_beacon.py"), "scan", "--transport", bumbleSpec(index)] + options,
            limit: HangGuard.processLimit)
        let termination = try await scanner.waitForExit(within: HangGuard.startUp + HangGuard.step)
        guard termination == .exited(0) else { throw scanner.failure("\(termination)") }
        return try scanner.stdoutLines
            .filter { $0.contains(#""event":"advertisement""#) }
            .map { line in
                do {
                    return try JSONDecoder().decode(ScannedAdvertisement.self, from: Data(line.utf8))
                } catch {
                    throw scanner.failure("unreadable advertisement line \(line): \(error)")
                }
            }
    }

    /// Stops the helpers, then the controllers (bounded), and removes the scratch directory.
    func stop() async {
        for helper in helpers.withLock({ $0 }).reversed() {
            await helper.stop()
        }
        await controllers.stop()
        do {
            try FileManager.default.removeItem(at: scratch)
        } catch {
            // Left in /tmp; harmless, and not worth failing a passing test for.
        }
    }
}

/// One advertisement as bumble's own scanner (tools/bumble_beacon.py scan) reports it.
struct ScannedAdvertisement: Decodable, Equatable {
    /// The iBeacon fields bumble's scanner decoded from the manufacturer data.
    struct IBeaconFields: Decodable, Equatable {
        let uuid: String
        let major: Int
        let minor: Int
        let measuredPower: Int
    }

    let address: String
    let addressType: String
    let rssi: Int
    /// The whole advertising data, hex.
    let data: String
    /// Each manufacturer-specific AD structure's value (company id first), hex.
    let manufacturerData: [String]
    let ibeacon: IBeaconFields?
}
