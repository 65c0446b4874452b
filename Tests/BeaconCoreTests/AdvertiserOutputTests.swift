import BeaconCore
import Testing

@Suite("Advertiser output lines")
struct AdvertiserOutputTests {
    let plan = AdvertisingPlan(
        beacon: .iBeacon(IBeacon(identity: BeaconIdentity(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2),
                                 measuredPower: -59)))
    let t0 = Timestamp(microseconds: 1_800_000_000_000_000)

    @Test("advertising line: identity, interval, data in hex, command set and reported power")
    func advertisingLine() {
        let line = OutputLine.encode(.advertising(plan: plan, started: AdvertisingStarted(commands: .extended, txPower: -4, time: t0)))
        #expect(line == #"{"event":"advertising","time":"2027-01-15T08:00:00.000Z","format":"ibeacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"measuredPower":-59,"intervalMs":100.000,"connectable":false,"data":"0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5","commands":"extended","txPower":-4}"#)
    }

    @Test("a controller that does not tell its power (127) gets no txPower member")
    func unknownPower() {
        var connectable = plan
        connectable.connectable = true
        connectable.intervalSlots = 33
        let line = OutputLine.encode(.advertising(plan: connectable, started: AdvertisingStarted(commands: .legacy, txPower: 127, time: t0)))
        #expect(line.hasSuffix(#""intervalMs":20.625,"connectable":true,"data":"0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5","commands":"legacy"}"#))
    }

    @Test("stopped line")
    func stoppedLine() {
        #expect(OutputLine.encode(.stopped(time: t0 + .milliseconds(1500), reason: .duration))
                == #"{"event":"stopped","time":"2027-01-15T08:00:01.500Z","reason":"duration"}"#)
    }
}

extension OutputSchemaTests {
    @Test("advertiser lines validate against the schema")
    func advertiserLinesValidate() throws {
        let plan = AdvertisingPlan(beacon: .iBeacon(IBeacon(identity: BeaconIdentity(uuid: Fixture.uuid, major: 65535, minor: 0), measuredPower: -127)),
                                   intervalSlots: 0x4000, connectable: true, txPower: 20)
        try expectValid([
            OutputLine.encode(.advertising(plan: plan, started: AdvertisingStarted(commands: .legacy, txPower: nil, time: Fixture.t0))),
            OutputLine.encode(.advertising(plan: plan, started: AdvertisingStarted(commands: .extended, txPower: -127, time: Fixture.t0))),
            OutputLine.encode(.stopped(time: Fixture.t0, reason: .signal)),
        ])
    }
}
