@testable import BeaconCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// LocatorFixture's two rooms, each gateway hearing `offsets` dB above the model, a beacon heard by
/// every gateway once a second with 2 dB of noise.
private enum OffsetSite {
    typealias F = LocatorFixture
    static let offsets = [-4.0, 3, 0, 1]

    static func run(_ locator: inout Locator, seconds: Int, offsets: [Double] = offsets,
                    rssi: (Int, Double) -> Double = { $1 }, position: (Int) -> Point2) {
        var rng = SplitMix64(seed: 7)
        for second in 1...seconds {
            let time = F.at(seconds: Double(second))
            let point = position(second)
            for (index, gateway) in F.site.gateways.enumerated() {
                let distance = gateway.point.distance(to: point)
                let heard = F.rssi(atDistance: distance) + offsets[index] + 2 * rng.normalPair().0
                let message = GatewayReadings(gateway: gateway.name, time: time, sequence: second,
                                              readings: [F.reading(rssi: rssi(index, heard))])
                _ = locator.receive(message, arrival: time)
            }
            locator.advance(arrival: time) { _ in }
        }
    }

    /// Round the 4 × 2 m loop inside the two rooms at 0.6 m/s.
    static func loop(_ second: Int) -> Point2 {
        let corners = [Point2(x: 1, y: 1), Point2(x: 5, y: 1), Point2(x: 5, y: 3), Point2(x: 1, y: 3)]
        var along = (Double(second) * 0.6).truncatingRemainder(dividingBy: 12)
        for index in corners.indices {
            let from = corners[index], to = corners[(index + 1) % corners.count]
            let length = from.distance(to: to)
            if along <= length {
                let share = along / length
                return Point2(x: from.x + share * (to.x - from.x), y: from.y + share * (to.y - from.y))
            }
            along -= length
        }
        return corners[0]
    }
}

@Suite("Each gateway's RSSI offset learned from the beacons' own readings")
struct ReceiverOffsetsTests {
    @Test("a walking beacon's readings take each gateway's offset towards the site's, relative to their mean")
    func walkingConverges() throws {
        var locator = Locator(site: LocatorFixture.site)
        OffsetSite.run(&locator, seconds: 900, position: OffsetSite.loop)
        let learned = locator.offsets.offsets
        let truth = OffsetSite.offsets.map { $0 - OffsetSite.offsets.reduce(0, +) / 4 }
        for index in truth.indices {
            let offset = try #require(learned[index], "gateway \(index): \(learned)")
            // Taken at the posterior estimate the offset is understated, never overstated or of the wrong sign.
            #expect(abs(offset - truth[index]) < abs(truth[index]) || abs(offset) < 0.5, "\(learned) against \(truth)")
            #expect(offset * truth[index] >= 0, "\(learned) against \(truth)")
            #expect(locator.signal.receiver(index).offset == offset)
        }
        #expect(abs(learned[0]! - truth[0]) < 2 && abs(learned[1]! - truth[1]) < 2, "\(learned)")
    }

    @Test("a standing beacon moves no offset: its place absorbs them")
    func standingMovesNone() {
        var locator = Locator(site: LocatorFixture.site)
        OffsetSite.run(&locator, seconds: 900) { _ in Point2(x: 1.5, y: 2) }
        #expect(locator.offsets.offsets.allSatisfy { $0 == nil }, "\(locator.offsets.offsets)")
        #expect(locator.signal.receivers.isEmpty)
    }

    @Test("a gateway's hostile readings move its offset a bounded amount")
    func hostileBounded() {
        var locator = Locator(site: LocatorFixture.site)
        OffsetSite.run(&locator, seconds: 900, offsets: [0, 0, 0, 0], rssi: { $0 == 2 ? ($1 < -60 ? 0 : -200) : $1 },
                       position: OffsetSite.loop)
        for offset in locator.offsets.offsets.compactMap({ $0 }) {
            #expect(offset.isFinite && abs(offset) <= 2 * ReceiverOffsets.largestResidual, "\(locator.offsets.offsets)")
        }
        var offsets = ReceiverOffsets(gateways: 2, scatter: 4)
        for second in 1...600 {
            for _ in 0..<1000 {
                offsets.add(gateway: 0, residual: 1e9, variance: 1)
                offsets.add(gateway: 1, residual: -1e9, variance: 1)
                offsets.add(gateway: 1, residual: .nan, variance: 1)
                offsets.add(gateway: 1, residual: -.infinity, variance: 0)
            }
            offsets.close(at: LocatorFixture.at(seconds: Double(second)))
        }
        // One window counts as one reading at the model's scatter, however many it holds; the residual is clipped.
        let learned = offsets.offsets
        #expect(learned[0].map { $0 > 0 && $0 <= ReceiverOffsets.largestResidual } == true, "\(learned)")
        #expect(learned[1].map { $0 < 0 && $0 >= -ReceiverOffsets.largestResidual } == true, "\(learned)")
        #expect(offsets.spread(0) > 0.1)
    }

    @Test("evidence is forgotten with the half-life, and a gateway with an offset of its own learns none")
    func forgettingAndExclusion() {
        var offsets = ReceiverOffsets(gateways: 3, scatter: 1)
        offsets.add(gateway: 0, residual: 2, variance: 1)
        offsets.add(gateway: 1, residual: -2, variance: 1)
        offsets.add(gateway: 2, residual: 5, variance: 1)
        offsets.setLearning(2, false)
        offsets.close(at: LocatorFixture.at(seconds: 0))
        let before = 1 / (offsets.spread(0) * offsets.spread(0))
        offsets.close(at: LocatorFixture.at(seconds: ReceiverOffsets.halfLife))
        let after = 1 / (offsets.spread(0) * offsets.spread(0))
        let prior = 1 / (ReceiverOffsets.priorSpread * ReceiverOffsets.priorSpread)
        #expect(abs((after - prior) - (before - prior) / 2) < 1e-9)
        #expect(offsets.offsets[2] == nil)
        #expect(offsets.spread(2) == ReceiverOffsets.priorSpread)
    }
}
