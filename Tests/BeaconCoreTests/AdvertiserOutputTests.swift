import BeaconCore
import SchemaValidation
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

    @Test("through the management interface the line also names the kernel's advertising instance")
    func managementInstance() {
        let line = OutputLine.encode(.advertising(plan: plan, started: AdvertisingStarted(commands: .extended, txPower: 0, time: t0, instance: 5)))
        #expect(line.hasSuffix(#""commands":"extended","txPower":0,"advertisingInstance":5}"#))
    }

    @Test("a long-range advertising line says coded; on LE 1M there is no phy member")
    func codedLine() {
        var coded = plan
        coded.phy = .leCoded
        let line = OutputLine.encode(.advertising(plan: coded, started: AdvertisingStarted(commands: .extended, txPower: 0, time: t0)))
        #expect(line.hasSuffix(#""commands":"extended","phy":"coded","txPower":0}"#))
    }

    @Test("a controller that does not tell its power (127) gets no txPower member")
    func unknownPower() {
        var connectable = plan
        connectable.connectable = true
        connectable.intervalSlots = 33
        let line = OutputLine.encode(.advertising(plan: connectable, started: AdvertisingStarted(commands: .legacy, txPower: 127, time: t0)))
        #expect(line.hasSuffix(#""intervalMs":20.625,"connectable":true,"data":"0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5","commands":"legacy"}"#))
    }


    @Test("each format's line carries its format, its own identity fields and power, and the data sent")
    func otherFormats() throws {
        let started = AdvertisingStarted(commands: .extended, txPower: nil, time: t0)
        let alt = AdvertisingPlan(beacon: .altBeacon(AltBeacon(
            companyID: 0x004C, id1: try #require(BeaconUUID("2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")), id2: 1, id3: 2,
            referenceRSSI: -59, reserved: 0xAB)))
        #expect(OutputLine.encode(.advertising(plan: alt, started: started)) == #"{"event":"advertising","time":"2027-01-15T08:00:00.000Z","format":"altbeacon","id1":"2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6","id2":1,"id3":2,"measuredPower":-59,"companyId":76,"reserved":171,"intervalMs":100.000,"connectable":false,"data":"0201061BFF4C00BEAC2F234454CF6D4A0FADF2F4911BA9FFA600010002C5AB","commands":"extended"}"#)
        let uid = AdvertisingPlan(beacon: .eddystone(EddystonePayload(
            frame: .uid(AdvertisedFormatTests.uid), txPowerAt0m: -18)))
        #expect(OutputLine.encode(.advertising(plan: uid, started: started)) == #"{"event":"advertising","time":"2027-01-15T08:00:00.000Z","format":"eddystone-uid","namespace":"EDD1EBEAC04E5DEFA017","instance":"0BDB87539B67","txPowerAt0m":-18,"intervalMs":100.000,"connectable":false,"data":"0201060303AAFE1716AAFE00EEEDD1EBEAC04E5DEFA0170BDB87539B670000","commands":"extended"}"#)
        let url = AdvertisingPlan(beacon: .eddystone(EddystonePayload(frame: .url(try EddystoneURL("https://a.org/\"q\"\\")), txPowerAt0m: 20)))
        #expect(OutputLine.encode(.advertising(plan: url, started: started)) == #"{"event":"advertising","time":"2027-01-15T08:00:00.000Z","format":"eddystone-url","url":"https://a.org/\"q\"\\","txPowerAt0m":20,"intervalMs":100.000,"connectable":false,"data":"0201060303AAFE0C16AAFE10140361012271225C","commands":"extended"}"#)
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
            OutputLine.encode(.advertising(plan: plan, started: AdvertisingStarted(commands: .legacy, txPower: nil, time: Fixture.t0, instance: 254))),
            OutputLine.encode(.advertising(plan: AdvertisingPlan(beacon: plan.beacon, phy: .leCoded),
                                           started: AdvertisingStarted(commands: .extended, txPower: 0, time: Fixture.t0))),
            OutputLine.encode(.stopped(time: Fixture.t0, reason: .signal)),
        ])
        let started = AdvertisingStarted(commands: .extended, txPower: 0, time: Fixture.t0)
        let uid = AdvertisedFormatTests.uid
        let beacons: [AdvertisedBeacon] = [
            .altBeacon(AltBeacon(companyID: 0xFFFF, id1: Fixture.uuid, id2: 0, id3: 65535, referenceRSSI: 20, reserved: 255)),
            .eddystone(EddystonePayload(frame: .uid(uid), txPowerAt0m: -100)),
            .eddystone(EddystonePayload(frame: .url(try EddystoneURL("http://a.b/c%20d")),
                                        txPowerAt0m: 20)),
        ]
        try expectValid(beacons.map { OutputLine.encode(.advertising(plan: AdvertisingPlan(beacon: $0), started: started)) })
    }

    @Test("an advertising line with another format's fields, or without its own, is invalid")
    func advertiserLinesRejected() throws {
        let base = #""event":"advertising","time":"2027-01-15T08:00:00.000Z","intervalMs":100.000,"connectable":false,"data":"020106","commands":"legacy""#
        let lines = [
            #"{"# + base + #","format":"altbeacon","uuid":"2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6","major":1,"minor":2,"measuredPower":-59}"#,
            #"{"# + base + #","format":"eddystone-uid","namespace":"EDD1EBEAC04E5DEFA017","instance":"0BDB87539B67"}"#,
            #"{"# + base + #","format":"eddystone-uid","namespace":"EDD1EBEAC04E5DEFA0","instance":"0BDB87539B67","txPowerAt0m":0}"#,
            #"{"# + base + #","format":"eddystone-url","url":"https://a","txPowerAt0m":0,"id2":1}"#,
            #"{"# + base + #","uuid":"2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6","major":1,"minor":2,"measuredPower":-59}"#,
        ]
        for (line, problem) in zip(lines, try SchemaValidator.problems(lines)) {
            #expect(problem != nil, "accepted: \(line)")
        }
    }
}
