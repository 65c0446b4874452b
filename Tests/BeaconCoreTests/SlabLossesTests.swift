import BeaconCore
import Testing

@Suite("Slab losses learned from the beacons' readings")
struct SlabLossesTests {
    typealias F = LocatorFixture
    let pair = SlabLosses.Floors(1, 0)

    /// `windows` windows a second apart, each adding `loss` (variance 16) once, from `start` seconds.
    func learned(_ losses: inout SlabLosses, loss: Double, windows: Int, start: Int = 1, perWindow: Int = 1) {
        for second in start..<(start + windows) {
            for _ in 0..<perWindow { losses.add(pair, loss: loss, variance: 16) }
            losses.close(at: F.at(seconds: Double(second)))
        }
    }

    @Test("a pair of floors is the same pair either way round")
    func pairs() {
        #expect(SlabLosses.Floors(1, 0) == SlabLosses.Floors(0, 1))
        #expect(SlabLosses.Floors(-1, 2).lower == -1 && SlabLosses.Floors(2, -1).upper == 2)
    }

    @Test("nothing is used until the loss is sure enough; then its posterior, pulled a little towards 0 by the prior")
    func usedOnceSure() throws {
        var losses = SlabLosses(scatter: 4)
        #expect(losses.loss(pair, doubt: 10) == nil)
        learned(&losses, loss: 12, windows: 2)
        #expect(losses.loss(pair, doubt: 10) == nil)
        learned(&losses, loss: 12, windows: 10, start: 3)
        let loss = try #require(losses.loss(pair, doubt: 10))
        #expect(loss.spread <= SlabLosses.usableSpread)
        #expect(loss.mean < 12 && loss.mean > 11)
    }

    @Test("a window of many beacons counts as one reading's worth: a crowd does not make the loss surer than time does")
    func windowCapped() throws {
        var one = SlabLosses(scatter: 4), crowd = SlabLosses(scatter: 4)
        learned(&one, loss: 8, windows: 20)
        learned(&crowd, loss: 8, windows: 20, perWindow: 50)
        let alone = try #require(one.loss(pair, doubt: 10)), many = try #require(crowd.loss(pair, doubt: 10))
        #expect(abs(alone.spread - many.spread) < 1e-9 && abs(alone.mean - many.mean) < 1e-9)
    }

    @Test("evidence is forgotten with the half-life: a slab that changes is followed")
    func forgets() throws {
        var losses = SlabLosses(scatter: 4)
        learned(&losses, loss: 4, windows: 300)
        learned(&losses, loss: 16, windows: 1200, start: 301)
        let loss = try #require(losses.loss(pair, doubt: 10))
        #expect(abs(loss.mean - 16) < 0.5)
    }

    @Test("a hostile loss moves the estimate a bounded amount; non-finite or same-floor evidence is dropped")
    func bounded() throws {
        var losses = SlabLosses(scatter: 4)
        learned(&losses, loss: 1e9, windows: 30)
        #expect(try #require(losses.loss(pair, doubt: 10)).mean <= SlabLosses.largestLoss)
        var clean = SlabLosses(scatter: 4)
        clean.add(pair, loss: .nan, variance: 16)
        clean.add(pair, loss: 3, variance: .infinity)
        clean.add(pair, loss: 3, variance: 0)
        clean.add(SlabLosses.Floors(1, 1), loss: 3, variance: 16)
        clean.close(at: F.at(seconds: 1))
        #expect(clean.pairs.isEmpty)
    }
}
