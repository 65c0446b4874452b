/// Sans-IO HCI command flow control (Core Vol 4 Part E 4.4): the host may send a command only while
/// the controller has granted credits (Num_HCI_Command_Packets of the latest Command Complete or
/// Command Status), and this package keeps at most one command outstanding so every answer can be
/// matched to its command. The caller performs the I/O and passes time in.
public struct CommandFlow: Sendable {
    public let timeout: Micros
    /// Commands the controller will accept now. One before the first event, as after power-on.
    public private(set) var credits: Int = 1
    /// The answer that last set `credits`: its opcode, and whether it answered the command pending then
    /// (a controller may answer commands never sent, and withhold credits in doing so).
    public private(set) var lastGrant: (opcode: HCIOpcode, answeredPending: Bool)?
    private var state: State = .idle

    private enum State {
        case idle
        case waiting(HCIOpcode, deadline: Timestamp)
    }

    public init(timeout: Micros) {
        self.timeout = timeout
    }

    /// True when a command may be sent now.
    public var canSend: Bool { credits > 0 && pending == nil }

    /// The command sent and not answered yet.
    public var pending: HCIOpcode? {
        if case .waiting(let opcode, _) = state { return opcode }
        return nil
    }

    /// When the pending command times out.
    public var deadline: Timestamp? {
        if case .waiting(_, let deadline) = state { return deadline }
        return nil
    }

    /// Records that `opcode` was written to the controller at `now`. Call only when `canSend`.
    public mutating func willSend(_ opcode: HCIOpcode, at now: Timestamp) {
        credits = max(0, credits - 1)
        state = .waiting(opcode, deadline: now + timeout)
    }

    /// Takes every event; returns the outcome of the pending command when this event answers it.
    /// Command Complete and Command Status for any opcode (NOP included) refresh the credits.
    public mutating func receive(_ event: HCIEvent, at now: Timestamp) -> CommandOutcome? {
        let outcome: CommandOutcome
        switch event {
        case .commandComplete(let num, let opcode, let returnParameters):
            credits = Int(num)
            lastGrant = (opcode, opcode == pending)
            guard opcode != .nop, opcode == pending else { return nil }
            if let status = returnParameters.first {
                let hciStatus = HCIStatus(rawValue: status)
                outcome = hciStatus.isSuccess
                    ? .completed(opcode, returnParameters: returnParameters.dropFirst())
                    : .failed(CommandError(opcode: opcode, kind: .status(hciStatus)))
            } else {
                outcome = .failed(CommandError(opcode: opcode,
                                               kind: .malformed("Command Complete without a status byte")))
            }
        case .commandStatus(let status, let num, let opcode):
            credits = Int(num)
            lastGrant = (opcode, opcode == pending)
            guard opcode != .nop, opcode == pending else { return nil }
            outcome = status.isSuccess ? .accepted(opcode) : .failed(CommandError(opcode: opcode, kind: .status(status)))
        default:
            return nil
        }
        state = .idle
        return outcome
    }

    /// Takes one credit the controller did not grant, so a command that must reach it (turning scanning
    /// or advertising off) is sent after credits were withheld for a whole timeout.
    public mutating func takeCreditBack() {
        credits = max(credits, 1)
    }

    /// The timeout error when the pending command's deadline has passed at `now`. The command is then
    /// given up and one credit restored, as the Linux host does, so the caller can go on (or reset).
    public mutating func expire(at now: Timestamp) -> CommandError? {
        guard case .waiting(let opcode, let deadline) = state, now >= deadline else { return nil }
        state = .idle
        credits = max(credits, 1)
        return CommandError(opcode: opcode, kind: .timeout(timeout))
    }
}

/// How the controller answered the pending command.
public enum CommandOutcome: Equatable, Sendable {
    /// Command Complete with status Success; `returnParameters` follow the status byte.
    case completed(HCIOpcode, returnParameters: ArraySlice<UInt8>)
    /// Command Status with status Success: the controller started the command.
    case accepted(HCIOpcode)
    case failed(CommandError)
}

/// A command that did not succeed, naming the command and why.
public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    public var opcode: HCIOpcode
    public var kind: Kind

    public enum Kind: Equatable, Sendable {
        /// The controller answered with a non-zero status.
        case status(HCIStatus)
        /// No Command Complete or Command Status within this time.
        case timeout(Micros)
        /// The answer could not be understood.
        case malformed(String)
    }

    public init(opcode: HCIOpcode, kind: Kind) {
        self.opcode = opcode
        self.kind = kind
    }

    /// `HCI_LE_Set_Scan_Enable failed: Command Disallowed (0x0C)`,
    /// `HCI_Reset: no answer from the controller within 3s`.
    public var description: String {
        switch kind {
        case .status(let status): "\(opcode.name) failed: \(status.name)"
        case .timeout(let limit): "\(opcode.name): no answer from the controller within \(limit)"
        case .malformed(let reason): "\(opcode.name): malformed answer: \(reason)"
        }
    }
}
