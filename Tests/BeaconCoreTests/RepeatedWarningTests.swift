import BeaconCore
import Testing

@Suite("RepeatedWarning: the first few printed, the rest counted, one summary")
struct RepeatedWarningTests {
    @Test("the first five occurrences are printed, the next ones only counted, and the summary gives the total")
    func firstFivePrinted() {
        var warning = RepeatedWarning { "Warning: \($0) steps in all" }
        var printed: [String] = []
        for n in 1...1_000 {
            if let line = warning.occurred("step \(n)") { printed.append(line) }
        }
        #expect(printed == ["step 1", "step 2", "step 3", "step 4", "step 5"])
        #expect(warning.count == 1_000)
        #expect(warning.heldBack == 995)
        #expect(warning.summary == "Warning: 1000 steps in all")
    }

    @Test("no summary while every occurrence was printed")
    func noSummaryWithinLimit() {
        var warning = RepeatedWarning(limit: 2) { "\($0) in all" }
        #expect(warning.summary == nil)
        #expect(warning.occurred("a") == "a")
        #expect(warning.occurred("b") == "b")
        #expect(warning.summary == nil)
        #expect(warning.occurred("c") == nil)
        #expect(warning.summary == "3 in all")
    }

    @Test("a held-back occurrence's message is never built")
    func heldBackMessageNotBuilt() {
        var warning = RepeatedWarning(limit: 1) { "\($0)" }
        var built = 0
        func message() -> String {
            built += 1
            return "m"
        }
        for _ in 0..<10 { _ = warning.occurred(message()) }
        #expect(built == 1)
    }
}
