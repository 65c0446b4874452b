import Testing
@testable import BeaconCore

@Suite struct CommandFlowTests {
    let t0 = Timestamp(microseconds: 1_000_000)

    func complete(_ opcode: HCIOpcode, credits: UInt8 = 1, _ returned: [UInt8]) -> HCIEvent {
        .commandComplete(numCommandPackets: credits, opcode: opcode, returnParameters: returned[...])
    }

    @Test func oneCommandAtATime() {
        var flow = CommandFlow(timeout: .seconds(3))
        #expect(flow.canSend)
        #expect(flow.credits == 1)
        flow.willSend(.reset, at: t0)
        #expect(!flow.canSend)
        #expect(flow.pending == .reset)
        #expect(flow.deadline == t0 + .seconds(3))
        let outcome = flow.receive(complete(.reset, [0x00]), at: t0 + .milliseconds(5))
        #expect(outcome == .completed(.reset, returnParameters: [][...]))
        #expect(flow.pending == nil)
        #expect(flow.deadline == nil)
        #expect(flow.canSend)
    }

    @Test func returnParametersFollowTheStatus() {
        var flow = CommandFlow(timeout: .seconds(1))
        flow.willSend(.readBDAddr, at: t0)
        let outcome = flow.receive(complete(.readBDAddr, [0x00, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0]), at: t0)
        #expect(outcome == .completed(.readBDAddr, returnParameters: [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0][...]))
    }

    @Test func zeroCreditsThenNopGrantsMore() {
        var flow = CommandFlow(timeout: .seconds(1))
        flow.willSend(.reset, at: t0)
        #expect(flow.receive(complete(.reset, credits: 0, [0x00]), at: t0) == .completed(.reset, returnParameters: [][...]))
        #expect(!flow.canSend) // nothing pending, but no credits
        #expect(flow.credits == 0)
        #expect(flow.receive(complete(.nop, credits: 1, []), at: t0) == nil)
        #expect(flow.canSend)
        // A Command Status with the NOP opcode grants credits too.
        flow.willSend(.leSetScanEnable, at: t0)
        #expect(flow.receive(complete(.leSetScanEnable, credits: 0, [0x00]), at: t0) != nil)
        #expect(flow.receive(.commandStatus(status: .success, numCommandPackets: 2, opcode: .nop), at: t0) == nil)
        #expect(flow.credits == 2)
        #expect(flow.canSend)
    }

    @Test func anAnswerToACommandNeverSentThatWithholdsCreditsIsNamedAndACreditCanBeTakenBack() {
        var flow = CommandFlow(timeout: .seconds(1))
        flow.willSend(.reset, at: t0)
        #expect(flow.receive(complete(.reset, [0x00]), at: t0) != nil)
        #expect(flow.lastGrant?.opcode == .reset && flow.lastGrant?.answeredPending == true)
        #expect(flow.receive(complete(.readBDAddr, credits: 0, [0x00]), at: t0) == nil)
        #expect(!flow.canSend)
        #expect(flow.lastGrant?.opcode == .readBDAddr && flow.lastGrant?.answeredPending == false)
        flow.takeCreditBack()
        #expect(flow.canSend)
        #expect(flow.credits == 1)
    }

    @Test func answersForOtherOpcodesAreIgnoredButGrantCredits() {
        var flow = CommandFlow(timeout: .seconds(1))
        flow.willSend(.leSetScanEnable, at: t0)
        #expect(flow.credits == 0)
        #expect(flow.receive(complete(.reset, credits: 1, [0x00]), at: t0) == nil)
        #expect(flow.pending == .leSetScanEnable)
        #expect(flow.credits == 1)
        #expect(!flow.canSend) // still waiting for our own answer
        #expect(flow.receive(.hardwareError(code: 1), at: t0) == nil)
        #expect(flow.receive(.leMeta(.advertisingReport([])), at: t0) == nil)
        #expect(flow.pending == .leSetScanEnable)
        #expect(flow.receive(complete(.leSetScanEnable, [0x00]), at: t0) == .completed(.leSetScanEnable, returnParameters: [][...]))
    }

    @Test func nonZeroStatusIsAFailureNamingCommandAndStatus() {
        var flow = CommandFlow(timeout: .seconds(1))
        flow.willSend(.leSetScanEnable, at: t0)
        let outcome = flow.receive(complete(.leSetScanEnable, [0x0C]), at: t0)
        let error = CommandError(opcode: .leSetScanEnable, kind: .status(.commandDisallowed))
        #expect(outcome == .failed(error))
        #expect(error.description == "HCI_LE_Set_Scan_Enable failed: Command Disallowed (0x0C)")
        #expect(flow.pending == nil)
        #expect(flow.canSend)
    }

    @Test func commandStatus() {
        var flow = CommandFlow(timeout: .seconds(1))
        let opcode = HCIOpcode(rawValue: 0x200D)
        flow.willSend(opcode, at: t0)
        #expect(flow.receive(.commandStatus(status: .success, numCommandPackets: 1, opcode: opcode), at: t0) == .accepted(opcode))
        flow.willSend(opcode, at: t0)
        let outcome = flow.receive(.commandStatus(status: .unknownCommand, numCommandPackets: 1, opcode: opcode), at: t0)
        #expect(outcome == .failed(CommandError(opcode: opcode, kind: .status(.unknownCommand))))
        if case .failed(let error) = outcome {
            #expect(error.description == "opcode 0x200D (OGF 0x08, OCF 0x000D) failed: Unknown HCI Command (0x01)")
        }
    }

    @Test func completeWithoutStatusIsMalformed() {
        var flow = CommandFlow(timeout: .seconds(1))
        flow.willSend(.reset, at: t0)
        let outcome = flow.receive(complete(.reset, []), at: t0)
        #expect(outcome == .failed(CommandError(opcode: .reset, kind: .malformed("Command Complete without a status byte"))))
        if case .failed(let error) = outcome {
            #expect(error.description == "HCI_Reset: malformed answer: Command Complete without a status byte")
        }
        #expect(flow.pending == nil)
    }

    @Test func timeout() {
        var flow = CommandFlow(timeout: .seconds(3))
        #expect(flow.expire(at: t0 + .seconds(10)) == nil) // nothing pending
        flow.willSend(.reset, at: t0)
        #expect(flow.expire(at: t0 + Micros(2_999_999)) == nil)
        #expect(flow.pending == .reset)
        let error = flow.expire(at: t0 + .seconds(3))
        #expect(error == CommandError(opcode: .reset, kind: .timeout(.seconds(3))))
        #expect(error?.description == "HCI_Reset: no answer from the controller within 3s")
        #expect(flow.pending == nil)
        #expect(flow.canSend)
        #expect(flow.expire(at: t0 + .seconds(4)) == nil)
        // A late answer for the abandoned command is ignored.
        #expect(flow.receive(complete(.reset, [0x00]), at: t0 + .seconds(5)) == nil)
    }
}
