import BeaconCore
import BeaconSimulation
import Testing

/// The radio model's statistics over many packets: each impairment does what its parameters say.
@Suite("Radio model")
struct RadioModelTests {
    /// Advertising events in a scene of `seconds` at 100 ms plus 0...10 ms of jitter.
    func expectedEvents(seconds: Double) -> Double { seconds / 0.105 }

    @Test("mean power follows the log-distance path loss: measured power - 10 n log10(d)")
    func meanPower() {
        let radio = RadioModel(pathLossExponent: 2.5)
        #expect(radio.meanRSSI(measuredPower: -59, distance: 1) == -59)
        #expect(abs(radio.meanRSSI(measuredPower: -59, distance: 10) - -84) < 1e-9)
        #expect(abs(radio.meanRSSI(measuredPower: -59, distance: 0) - radio.meanRSSI(measuredPower: -59, distance: 0.1)) < 1e-9)
    }

    @Test("without randomness every RSSI is the rounded mean plus the channel's offset", arguments: [1.0, 3.0, 7.5])
    func quietRSSI(distance: Double) throws {
        var radio = quietRadio
        radio.channelOffsets = [0, -4, 3]
        let record = try simulate(oneBeaconScene(.standing(distance: distance), duration: .seconds(10), radio: radio))
        let mean = radio.meanRSSI(measuredPower: -59, distance: distance)
        let allowed = Set(radio.channelOffsets.map { Int8((mean + $0).rounded()) })
        let values = try record.rssiValues
        #expect(values.count > 80)
        #expect(Set(values) == allowed, "\(Set(values)) vs \(allowed)")
    }

    @Test("with shadowing, channel offsets and fading the mean RSSI stays within 1.5 dB of the model",
          arguments: [1.0, 4.0, 12.0])
    func noisyMean(distance: Double) throws {
        let radio = RadioModel(pathLossExponent: 2.2)
        let record = try simulate(oneBeaconScene(.standing(distance: distance), duration: .seconds(1200), radio: radio,
                                                 receiver: ReceiverModel(sensitivity: -127)), seed: 11)
        let values = try record.rssiValues.map(Double.init)
        let expected = radio.meanRSSI(measuredPower: -59, distance: distance)
        let average = mean(values)
        #expect(abs(average - expected) < 1.5, "mean \(average) vs \(expected)")
        // Shadowing (3 dB) and fading (2 dB) spread the values: about 3.6 dB with the channel offsets.
        let deviation = mean(values.map { ($0 - average) * ($0 - average) }).squareRoot()
        #expect(deviation > 2.5 && deviation < 5, "deviation \(deviation)")
    }

    @Test("shadowing is slow: neighbouring packets of a still beacon are alike, packets a minute apart are not")
    func shadowingIsCorrelated() throws {
        var radio = quietRadio
        radio.shadowing = .init(sigma: 6, decorrelationDistance: 1, decorrelationTime: .seconds(10))
        let values = try simulate(oneBeaconScene(duration: .seconds(1800), radio: radio), seed: 5).rssiValues.map(Double.init)
        func correlation(lag: Int) -> Double {
            let a = Array(values.dropLast(lag)), b = Array(values.dropFirst(lag))
            let ma = mean(a), mb = mean(b)
            let covariance = mean(zip(a, b).map { ($0 - ma) * ($1 - mb) })
            return covariance / (mean(a.map { ($0 - ma) * ($0 - ma) }) * mean(b.map { ($0 - mb) * ($0 - mb) })).squareRoot()
        }
        #expect(correlation(lag: 1) > 0.9)
        #expect(abs(correlation(lag: 600)) < 0.3)
    }

    @Test("per-packet loss drops its fraction of packets")
    func lossRate() throws {
        var radio = quietRadio
        radio.loss = 0.3
        let received = Double(try simulate(oneBeaconScene(duration: .seconds(600), radio: radio)).reports.count)
        let rate = 1 - received / expectedEvents(seconds: 600)
        #expect(abs(rate - 0.3) < 0.03, "loss \(rate)")
    }

    @Test("interference loses packets in bursts: long silences that independent loss of the same rate never gives")
    func interferenceBursts() throws {
        var bursty = quietRadio
        bursty.interference = .init(loss: 1, every: .seconds(20), lasting: .seconds(5))
        let times = try simulate(oneBeaconScene(duration: .seconds(1200), radio: bursty), seed: 3).reports.map(\.time)
        let rate = 1 - Double(times.count) / expectedEvents(seconds: 1200)
        #expect(rate > 0.1 && rate < 0.35, "loss \(rate)") // on average 5 s of every 25 s
        let longestGap = zip(times, times.dropFirst()).map { ($1 - $0).seconds }.max() ?? 0
        #expect(longestGap > 5, "longest silence \(longestGap) s")

        var uniform = quietRadio
        uniform.loss = rate
        let uniformTimes = try simulate(oneBeaconScene(duration: .seconds(1200), radio: uniform), seed: 3).reports.map(\.time)
        #expect((zip(uniformTimes, uniformTimes.dropFirst()).map { ($1 - $0).seconds }.max() ?? 0) < 2)
    }

    @Test("bodies in the way take their attenuation off for a while")
    func bodyBlocking() throws {
        var radio = quietRadio
        radio.bodyBlocking = .init(attenuation: 12, every: .seconds(30), lasting: .seconds(10))
        let values = Set(try simulate(oneBeaconScene(duration: .seconds(600), radio: radio)).rssiValues)
        #expect(values == [-59, -71])
    }

    @Test("packets below the receiver's sensitivity are not received")
    func sensitivity() throws {
        // -59 - 20 log10(10) = -79 dBm at 10 m.
        let heard = try simulate(oneBeaconScene(.standing(distance: 10), receiver: ReceiverModel(sensitivity: -79)))
        #expect(try heard.reports.count > 500)
        let deaf = try simulate(oneBeaconScene(.standing(distance: 10), receiver: ReceiverModel(sensitivity: -78.5)))
        #expect(try deaf.reports.isEmpty)
    }

    @Test("RSSI is rounded and clamped to -127...20 dBm")
    func clamped() throws {
        let loud = try simulate(oneBeaconScene(.standing(distance: 0.01), duration: .seconds(2)) {
            $0.beacon = .iBeacon(IBeacon(identity: IBeaconID(uuid: sceneUUID, major: 1, minor: 1), measuredPower: 20))
        })
        #expect(Set(try loud.rssiValues) == [20])
    }

    @Test("a fraction of reports carries RSSI 127, not available")
    func rssiNotAvailable() throws {
        let values = try simulate(oneBeaconScene(duration: .seconds(300), receiver: ReceiverModel(rssiUnavailable: 0.25))).rssiValues
        let fraction = Double(values.filter { $0 == AdvertisingReport.notAvailable }.count) / Double(values.count)
        #expect(abs(fraction - 0.25) < 0.03, "\(fraction)")
        #expect(Set(values).subtracting([AdvertisingReport.notAvailable]) == [-59])
    }

    @Test("a scan window shorter than the interval hears its share of the packets")
    func scanWindow() throws {
        let receiver = ReceiverModel(scanInterval: .milliseconds(100), scanWindow: .milliseconds(25))
        let received = Double(try simulate(oneBeaconScene(duration: .seconds(600), receiver: receiver)).reports.count)
        #expect(abs(received / expectedEvents(seconds: 600) - 0.25) < 0.03)
    }
}
