import BeaconCore
import BeaconTransport
import Glibc

/// `beacon advertise --hci mgmt:N`: advertising through the kernel's management interface, beside
/// bluetoothd. An instance of its own (the highest free one) is added, and removed again however the
/// run ends short of SIGKILL: the kernel keeps an instance after its socket closes.
struct ManagementAdvertising {
    let options: AdvertiseOptions
    let output: LineOutput
    let controller: UInt16

    static func run(_ options: AdvertiseOptions, controller: UInt16, console: Console, signals: SignalWatcher?) -> ExitCode {
        let output = LineOutput(console: console)
        let socket: ManagementSocket
        do {
            socket = try ManagementSocket(controller: controller, signals: signals)
        } catch {
            return output.finish(Failure.report(error, console: console, origin: options.common.transportOrigin))
        }
        defer { socket.close() }
        let advertising = ManagementAdvertising(options: options, output: output, controller: controller)
        return output.finish(advertising.run(socket))
    }

    private func run(_ socket: ManagementSocket) -> ExitCode {
        var added: UInt8?
        var started = false
        var cause = StopCause.signal
        var failure: (any Error)?
        do {
            let instance = try choose(socket)
            let (commands, txPower) = try add(instance, socket)
            added = instance
            let on = AdvertisingStarted(commands: commands, txPower: txPower, time: Clock.now(), instance: instance)
            output.write(OutputLine.encode(.advertising(plan: options.plan, started: on)))
            started = true
            let end = options.common.duration.map { Micros(Clock.monotonic().value &+ $0.value) }
            if !output.readerGone {
                switch try socket.wait(until: end, output: output.console.outputDescriptor, instance: instance) {
                case .deadline:
                    cause = .duration
                case .signal, .outputGone:
                    break
                case .instanceRemoved:
                    added = nil
                    throw TransportError(.io, "mgmt:\(controller): advertising instance \(instance) was removed by another "
                        + "program, or hci\(controller) was powered off")
                case .controllerRemoved:
                    added = nil
                    throw TransportError(.io, "mgmt:\(controller): hci\(controller) went away: unplugged, or its driver detached")
                }
            }
        } catch is ManagementInterruption {
            // A signal during set-up: only the removal is left.
        } catch {
            failure = error
        }
        if let instance = added {
            do {
                _ = try socket.execute(.removeAdvertising(instance: instance), interruptible: false)
            } catch {
                failure = failure ?? error
            }
        }
        if failure == nil, started {
            output.write(OutputLine.encode(.stopped(time: Clock.now(), reason: cause)))
        }
        return failure.map { Failure.report($0, console: output.console) } ?? .success
    }

    /// The controller must be on with LE; the instance is the highest one nobody uses.
    private func choose(_ socket: ManagementSocket) throws -> UInt8 {
        let settings = try decode(ManagementControllerSettings.init, try socket.execute(.readControllerInformation), "Read Controller Information")
        guard settings.isPowered, settings.hasLowEnergy else {
            throw TransportError(.unavailable, "mgmt:\(controller): hci\(controller) is off or has LE disabled: "
                + "`bluetoothctl power on` or `sudo btmgmt --index \(controller) power on`")
        }
        if settings.isConnectable, !options.plan.connectable {
            output.console.diagnose("Warning: mgmt:\(controller): hci\(controller) is connectable (bluetoothd's setting), "
                + "so the kernel advertises this beacon as connectable too")
        }
        let features = try decode(ManagementAdvertisingFeatures.init, try socket.execute(.readAdvertisingFeatures), "Read Advertising Features")
        guard let instance = features.freeInstance else {
            throw TransportError(.busy, "mgmt:\(controller): all \(features.maxInstances) advertising instances of hci\(controller) "
                + "are in use (\(features.instances.map(String.init).joined(separator: ", "))); free one with `btmgmt --index \(controller) rm-adv N`")
        }
        return instance
    }

    /// Adds the instance: with its interval and power where the kernel has the extended commands
    /// (Linux 5.11), else with Add Advertising and the kernel's interval.
    private func add(_ instance: UInt8, _ socket: ManagementSocket) throws -> (LECommandSet, Int8?) {
        let plan = options.plan
        let supported = try decode(ManagementSupportedCommands.init, try socket.execute(.readSupportedCommands), "Read Management Supported Commands")
        var flags: ManagementAdvertisingFlags = plan.connectable ? .connectable : []
        guard supported.hasExtendedAdvertising, !options.forceLegacy else {
            output.console.diagnose("Warning: mgmt:\(controller): "
                + (options.forceLegacy ? "--legacy" : "this kernel has no Add Extended Advertising Parameters")
                + ": Add Advertising takes the kernel's interval, not \(plan.intervalMilliseconds) ms")
            _ = try socket.execute(.addAdvertising(instance: instance, flags: flags, data: plan.advertisingData))
            return (.legacy, nil)
        }
        flags.insert(.useInterval)
        if plan.txPower != nil { flags.insert(.useTxPower) }
        let answer = try decode(ManagementExtendedAdvertisingAnswer.init, try socket.execute(.addExtendedAdvertisingParameters(
            instance: instance, flags: flags, interval: plan.intervalSlots, txPower: plan.txPower ?? 127)), "Add Extended Advertising Parameters")
        do {
            _ = try socket.execute(.addExtendedAdvertisingData(instance: instance, data: plan.advertisingData))
        } catch {
            // The parameters alone made an instance: it goes with the failure.
            _ = try? socket.execute(.removeAdvertising(instance: instance), interruptible: false)
            throw error
        }
        return (.extended, answer.txPower)
    }

    private func decode<T>(_ make: ([UInt8]) throws(DecodeError) -> T, _ bytes: [UInt8], _ name: String) throws -> T {
        do {
            return try make(bytes)
        } catch {
            throw TransportError(.badStream, "mgmt:\(controller): malformed answer to \(name): \(error)")
        }
    }
}
