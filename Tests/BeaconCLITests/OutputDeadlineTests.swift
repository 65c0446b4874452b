@testable import BeaconCLI
import BeaconCore
import BeaconTransport
import Testing

@Suite("how long output waits for a slow reader: until a live run's end, and after a signal a short grace from the first wait")
struct OutputDeadlineTests {
    @Test("without a signal, the run's deadline or none; after one, 2 s from the first wait, kept by every later wait, never past the run's")
    func graceAfterSignal() {
        let deadline = OutputDeadline()
        #expect(deadline.end(signalled: false) == nil)
        let before = Clock.monotonic().value
        let grace = deadline.end(signalled: true)
        let after = Clock.monotonic().value
        let end = grace?.value ?? 0
        #expect(end >= before + OutputDeadline.afterSignal.value && end <= after + OutputDeadline.afterSignal.value)
        #expect(deadline.end(signalled: true) == grace, "counted from the first wait, not each one")
        deadline.monotonic = Micros(before)
        #expect(deadline.end(signalled: true) == Micros(before))
        #expect(deadline.end(signalled: false) == Micros(before))
    }
}
