import Testing
import BeaconCore

@Suite("OutputLine")
struct OutputLineTests {
    let uuidText = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test func stateLine() {
        let region = BeaconRegion(uuid: Fixture.uuid, major: 1)
        #expect(OutputLine.encode(.state(region, .unknown, Fixture.t0))
                == #"{"event":"state","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1},"state":"unknown"}"#)
    }

    @Test func namedRegionCarriesItsName() {
        let region = BeaconRegion(name: "lobby", uuid: Fixture.uuid, major: 0)
        #expect(OutputLine.encode(.state(region, .outside, Fixture.at(ms: 10_000)))
                == #"{"event":"state","time":"2026-11-29T12:00:10.000Z","region":{"name":"lobby","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":0},"state":"outside"}"#)
    }

    @Test func regionObjectListsOnlyConstraints() {
        let wildcard = BeaconRegion(uuid: Fixture.uuid)
        let zeroMajor = BeaconRegion(uuid: Fixture.uuid, major: 0)
        let full = BeaconRegion(uuid: Fixture.uuid, major: 0, minor: 65535)
        #expect(OutputLine.encode(.enter(wildcard, Fixture.at(ms: 1_234)))
                == #"{"event":"enter","time":"2026-11-29T12:00:01.234Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}"#)
        #expect(OutputLine.encode(.exit(zeroMajor, Fixture.at(ms: 10_000)))
                == #"{"event":"exit","time":"2026-11-29T12:00:10.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":0}}"#)
        #expect(OutputLine.encode(.enter(full, Fixture.t0))
                == #"{"event":"enter","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":0,"minor":65535}}"#)
    }

    @Test func rangeLineWithBeacons() {
        let region = BeaconRegion(uuid: Fixture.uuid, major: 1)
        let near = RangedBeacon(identity: BeaconIdentity(uuid: Fixture.uuid, major: 1, minor: 2), rssi: -50,
                                filteredRSSI: -49.96, measuredPower: -59, accuracy: 0.3548133892335755, proximity: .immediate,
                                address: Fixture.address1, addressType: .publicDevice, samples: 6, lastSeen: Fixture.at(ms: 950))
        let silent = RangedBeacon(identity: BeaconIdentity(uuid: Fixture.uuid, major: 1, minor: 3), rssi: nil,
                                  measuredPower: 0, measuredPowerValid: false, accuracy: -1, proximity: .unknown,
                                  address: Fixture.address2, addressType: .randomDevice, samples: 1, lastSeen: Fixture.at(ms: 10))
        #expect(OutputLine.encode(.range(region, Fixture.at(ms: 1_000), [near, silent]))
                == #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-50.0,"filteredRssi":-50.0,"measuredPower":-59,"measuredPowerValid":true,"accuracy":0.35,"proximity":"immediate","address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","samples":6,"lastSeen":"2026-11-29T12:00:00.950Z"},{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":3,"rssi":0.0,"filteredRssi":null,"measuredPower":0,"measuredPowerValid":false,"accuracy":-1.00,"proximity":"unknown","address":"F0:F1:F2:F3:F4:02","addressType":"random","phy":"1m","samples":1,"lastSeen":"2026-11-29T12:00:00.010Z"}]}"#)
    }

    @Test func emptyRangeLine() {
        #expect(OutputLine.encode(.range(BeaconRegion(uuid: Fixture.otherUUID), Fixture.at(ms: 2_000), []))
                == #"{"event":"range","time":"2026-11-29T12:00:02.000Z","region":{"uuid":"00112233-4455-6677-8899-AABBCCDDEEFF"},"beacons":[]}"#)
    }

    /// From sightings to printed lines: the whole ranging path with injected time, with the interval
    /// mean, log-distance n = 2 and no tracking age, so every figure is worked by hand.
    @Test func monitorToLines() {
        let region = BeaconRegion(uuid: Fixture.uuid, major: 1)
        let estimator = RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 2), trackingAge: .seconds(0))
        var h = MonitorHarness([region], exitAfter: .seconds(2), interval: .seconds(1), estimator: estimator)
        for (ms, rssi) in [(100, -48), (300, -50), (500, -52), (700, nil)] as [(Int64, Int8?)] {
            h.sighting(Fixture.sighting(rssi: rssi, ms: ms))
        }
        h.tick(ms: 5_000)
        #expect(h.outputs.map(OutputLine.encode) == [
            #"{"event":"state","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1},"state":"unknown"}"#,
            #"{"event":"enter","time":"2026-11-29T12:00:00.100Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1}}"#,
            #"{"event":"state","time":"2026-11-29T12:00:00.100Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1},"state":"inside"}"#,
            // mean of -48, -50, -52 (the fourth advertisement had no RSSI); 10^((-59 + 50) / 20) = 0.3548 m
            #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-50.0,"filteredRssi":-50.0,"measuredPower":-59,"measuredPowerValid":true,"accuracy":0.35,"proximity":"immediate","address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","samples":4,"lastSeen":"2026-11-29T12:00:00.700Z"}]}"#,
            #"{"event":"range","time":"2026-11-29T12:00:02.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1},"beacons":[]}"#,
            #"{"event":"exit","time":"2026-11-29T12:00:02.700Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1}}"#,
            #"{"event":"state","time":"2026-11-29T12:00:02.700Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1},"state":"outside"}"#,
        ])
    }
}
