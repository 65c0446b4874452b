// Writes the fuzz seed corpora (fuzz/corpus/<target>/) from the codecs' golden shapes.
// Compiled together with Sources/BeaconCore by `make fuzz-seeds`; the output is committed.
#if canImport(Glibc)
import Glibc
#endif

@main
enum GenerateSeeds {
    static let uuid = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)
    static let time = Timestamp(microseconds: 1_800_000_000_000_000)

    static func beacon(_ minor: UInt16) -> IBeacon {
        IBeacon(identity: IBeaconID(uuid: uuid, major: 1, minor: minor), measuredPower: -59)
    }

    static func report(_ data: [UInt8], extended: Bool, rssi: Int8 = -60) -> AdvertisingReport {
        AdvertisingReport(eventType: extended ? 0x0010 : 0x03, isExtended: extended, addressType: .publicDevice,
                          address: DeviceAddress(value: 0xC000_0000_0001), rssi: rssi, data: data[...])
    }

    static func reportEvent(_ reports: [AdvertisingReport], extended: Bool) -> [UInt8] {
        HCIEvent.leMeta(extended ? .extendedAdvertisingReport(reports) : .advertisingReport(reports)).encode()
    }

    static var events: [[UInt8]] {
        [
            reportEvent([report(beacon(1).advertisingData, extended: false)], extended: false),
            reportEvent([report(beacon(2).advertisingData, extended: true), report([0x02, 0x01, 0x06], extended: true, rssi: 127)], extended: true),
            HCIEvent.commandComplete(numCommandPackets: 1, opcode: .leSetScanEnable, returnParameters: [0x00][...]).encode(),
            HCIEvent.commandStatus(status: .commandDisallowed, numCommandPackets: 1, opcode: .leSetExtendedScanEnable).encode(),
            HCIEvent.hardwareError(code: 0x01).encode(),
            HCIEvent.unknown(code: 0x13, parameters: [0x01, 0x40, 0x00, 0x01, 0x00][...]).encode(),
        ]
    }

    /// An iBeacon heard on LE Coded: an extended report (not legacy, non-connectable, non-scannable)
    /// whose primary and secondary PHY are 0x03, what `beacon advertise --phy coded` sends.
    static var codedEvent: [UInt8] {
        let report = AdvertisingReport(eventType: 0x0000, isExtended: true, addressType: .publicDevice,
                                       address: DeviceAddress(value: 0xC000_0000_0003), primaryPHY: 0x03, secondaryPHY: 0x03,
                                       sid: 0x00, rssi: -88, data: beacon(3).advertisingData[...])
        return reportEvent([report], extended: true)
    }

    static func write(_ target: String, _ name: String, _ bytes: [UInt8]) {
        let directory = "fuzz/corpus/\(target)"
        mkdir("fuzz/corpus", 0o755)
        mkdir(directory, 0o755)
        let fd = open("\(directory)/\(name)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { perror(directory); exit(1) }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    static func main() {
        let h4Stream = events.flatMap { HCIPacket(kind: .event, payload: $0).h4Bytes }
            + HCICommand.leSetScanEnable(true, filterDuplicates: false).packet.h4Bytes
            + HCIPacket(kind: .aclData, payload: [0x01, 0x20, 0x02, 0x00, 0xAA, 0xBB]).h4Bytes
            + HCIPacket(kind: .isoData, payload: [0x01, 0x00, 0x01, 0x40, 0xCC]).h4Bytes
        write("h4_framer", "stream", [4] + h4Stream)
        write("h4_framer", "split-header", [1] + h4Stream.prefix(2))

        for (i, event) in events.enumerated() {
            write("hci_event", "event-\(i)", event)
            write("beacon_decoders", "event-\(i)", event)
        }
        write("hci_event", "event-\(events.count)", codedEvent)
        write("beacon_decoders", "event-\(events.count)", codedEvent)
        // The kernel's Device Found and Advertisement Monitor Device Found parameters (mgmt:N), which
        // the target also reads its input as.
        let found = Hex.decode("01F4F3F2F1F0" + "01" + "C4" + "04000000" + "1E00")! + beacon(7).advertisingData
        write("hci_event", "mgmt-device-found", found)
        write("hci_event", "mgmt-monitor-device-found", [0, 0] + found)

        write("advertising_data", "ibeacon", beacon(7).advertisingData)
        write("advertising_data", "padded", AdvertisingData.build([(.flags, [0x06]), (.completeLocalName, Array("sensor".utf8))]) + [0, 0, 0])
        write("beacon_decoders", "ibeacon-ad", beacon(9).advertisingData)
        write("beacon_decoders", "ibeacon-msd", beacon(9).manufacturerData + [0x64])

        // Every format, written from the specifications' layouts (hex, as the tests' golden vectors).
        let frames = [
            "altbeacon": "1BFF1801BEAC2F234454CF6D4A0FADF2F4911BA9FFA600010002C500",
            "altbeacon-msd": "1801BEAC2F234454CF6D4A0FADF2F4911BA9FFA600010002C500",
            "eddystone-uid": "0201060303AAFE1716AAFE00EC000102030405060708090A0B0C0D0E0F0000",
            "eddystone-url": "0303AAFE1016AAFE10EB016578616D706C65006161",
            "eddystone-url-sd": "AAFE10EB016578616D706C65006161",
            "eddystone-tlm": "1116AAFE20000BB818800000010000000E10",
            "eddystone-etlm": "1516AAFE200100112233445566778899AABBCCDDEEFF",
            "eddystone-eid": "0D16AAFE30F60123456789ABCDEF",
        ]
        for (name, hex) in frames {
            guard let bytes = Hex.decode(hex) else { fputs("bad seed \(name)\n", stderr); exit(1) }
            write("beacon_frames", name, bytes)
        }
        write("beacon_frames", "ibeacon-ad", beacon(9).advertisingData)

        let packets: [(HCIPacket, PacketDirection, UInt16)] = [
            (HCICommand.leSetScanEnable(true, filterDuplicates: false).packet, .sent, 0),
            (HCIPacket(kind: .event, payload: events[2]), .received, 0),
            (HCIPacket(kind: .event, payload: events[0]), .received, 0),
            (HCIPacket(kind: .event, payload: events[1]), .received, 1),
            (HCIPacket(kind: .aclData, payload: [0x01, 0x20, 0x00, 0x00]), .received, 0),
        ]
        for (mode, datalink) in [(0, BtsnoopDatalink.hciUnencapsulated), (0, .h4), (0x10 | 0x20, .linuxMonitor)] {
            let writer = BtsnoopWriter(datalink: datalink)
            var file = writer.header
            for (n, (packet, direction, index)) in packets.enumerated() {
                writer.appendRecord(packet, direction: direction, timestamp: time + Micros(Int64(n) * 1000),
                                    controllerIndex: index, to: &file)
            }
            if datalink == .linuxMonitor {
                BtsnoopWriter.appendMonitorRecord(.systemNote, controllerIndex: 0, data: Array("note".utf8), timestamp: time, to: &file)
            }
            // First byte: chunk size; second: mode (0 = the file as given, 0x10 | index << 5 = index filter).
            write("btsnoop_reader", "datalink-\(datalink.rawValue)", [7, UInt8(mode)] + file)
        }

        for (i, spec) in ["hci0", "7", "hci-user:1", "tcp:localhost:9001", "tcp:[::1]:9001", "unix:/run/h4",
                          "serial:/dev/ttyUSB0,1000000,rtscts", "btsnoop:/tmp/c.btsnoop"].enumerated() {
            write("transport_spec", "spec-\(i)", Array(spec.utf8))
        }

        let jsonTexts = [
            #"{"a":[1,-2.5e-3,0,true,false,null],"b":{"c":"d"}}"#,
            #"["\ud83d\ude00","\u00e9\n\t\"","é😀"]"#,
            #"{"rooms":[{"name":"hall","polygon":[[0,0],[4,0],[4,4],[0,4]]}]}"#,
            "[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]",
            #"{"a":1,"a":2}"#,
            "1e309",
        ]
        for (i, text) in jsonTexts.enumerated() {
            write("json_value", "text-\(i)", Array(text.utf8))
        }

        let siteTexts = [
            #"{"rooms":[{"name":"hall","polygon":[[0,0],[4,0],[4,4],[0,4]]}],"gateways":[{"name":"gw1","position":[2,2,1],"room":"hall"}]}"#,
            #"{"floors":[{"level":0,"name":"ground","height":3.0}],"rooms":[{"name":"a","polygon":[[0,0],[4,0],[4,4]],"floor":0},{"name":"b","polygon":[[4,0],[8,0],[8,4]]}],"gateways":[{"name":"g1","position":[1,1]},{"name":"g2","position":[7,1,2],"floor":0}],"walls":[{"from":[4,0],"to":[4,4],"attenuation":6,"floor":0}]}"#,
            #"{"rooms":[{"name":"hall","polgon":[[0,0]]}],"gateways":[]}"#,
        ]
        for (i, text) in siteTexts.enumerated() {
            write("site_file", "site-\(i)", Array(text.utf8))
        }

        let readingsTexts = [
            #"{"gateway":"gw1","time":"2026-12-03T07:38:29.000Z","seq":12,"beacons":[{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1","rssi":-61.3,"filteredRssi":-60.5,"spread":1.23,"samples":9,"measuredPower":-59,"accuracy":1.50}]}"#,
            #"{"gateway":"gw1","time":"2026-12-03T07:38:30.000Z","seq":13,"beacons":[]}"#,
            #"{"gateway":"gw1","time":"2026-12-03T07:38:31.500Z","seq":14,"beacons":[{"id":"a","rssi":-90,"filteredRssi":-88,"spread":0,"samples":1,"measuredPower":-59,"accuracy":-1},{"id":"b","rssi":-40,"filteredRssi":-41,"spread":12.5,"samples":40,"measuredPower":-65,"accuracy":0}]}"#,
            #"{"gateway":"gw2","time":"9999-12-31T23:59:59.999Z","seq":1,"beacons":[]}"#,
        ]
        for (i, text) in readingsTexts.enumerated() {
            write("readings_decoder", "message-\(i)", Array(text.utf8))
        }

        let pathTexts = [
            #"[{"x":0,"y":0,"t":0},{"x":3,"y":4,"t":5}]"#,
            #"[{"x":3,"y":2.5,"t":0},{"x":3,"y":2.5,"t":59},{"x":3,"y":6,"t":62.5},{"x":8,"y":6,"t":67.5},{"x":8,"y":2.5,"t":71}]"#,
            #"[{"x":-10000,"y":10000,"t":0},{"x":10000,"y":-10000,"t":604800}]"#,
            #"[{"x":0,"y":0,"t":1},{"x":1,"y":0,"t":1}]"#,
        ]
        for (i, text) in pathTexts.enumerated() {
            write("survey_path", "path-\(i)", Array(text.utf8))
        }

        let surveyTexts = [
            #"{"x":3.2,"y":1.5,"gateway":"a","rssi":-71.5,"samples":3400}"#,
            #"{"x":3.2,"y":1.5,"floor":0,"gateway":"b","rssi":null,"samples":0,"time":"2026-12-03T07:38:29.000Z"}"# + "\n"
                + #"{"x":3.4,"y":1.6,"gateway":"a","rssi":-60,"samples":12,"spread":2.5,"note":{"room":"hall"}}"#,
            #"{"x":1,"y":1,"gateway":"a","rssi":-40,"samples":1}"# + "\r\n" + #"{"x":1,"y":1,"gateway":"a","rssi":-90,"samples":1}"# + "\n\n"
                + #"{"x":7,"y":5,"gateway":"b","rssi":-45,"samples":30,"spread":1}"#,
        ]
        for (i, text) in surveyTexts.enumerated() {
            write("survey_file", "survey-\(i)", Array(text.utf8))
        }

        let siteFitTexts = [
            #"{"event":"fit","time":"2026-11-29T12:05:00.000Z","samples":3,"pathLossExponent":2.66,"exponentDeviation":1.15,"measuredPower":-62,"measuredPowerDeviation":4.49,"residual":0.40,"priorWeight":0.5000,"flags":"--path-loss-exponent 2.66 --measured-power -62"}"#,
            #"{"event":"calibration","time":"2026-11-29T12:04:00.000Z","distance":1,"rssi":-62}"# + "\r\n\n"
                + #"{"event":"fit","pathLossExponent":0.5,"exponentDeviation":0}"# + "\n"
                + #"{"event":"fit","pathLossExponent":6,"exponentDeviation":100,"priorWeight":0}"#,
            #"{"event":"fit","pathLossExponent":1.4,"exponentDeviation":1e-300,"priorWeight":1e-300}"# + "\n" + #"{"event":"note"}"#,
        ]
        for (i, text) in siteFitTexts.enumerated() {
            write("site_fit", "fit-\(i)", Array(text.utf8))
        }

        let calibrationTexts = [
            #"{"event":"gatewayCalibration","time":"2026-01-01T00:00:50.000Z","pairs":6,"scatter":0.50,"gateways":[{"name":"gw1","offset":-5.42,"offsetError":1.95,"exponent":1.67,"exponentError":0.24,"pairs":2,"residual":0.05,"changed":false,"outliers":[],"covariance":0.4138,"centre":5.23},{"name":"gw2","offset":4.41,"offsetError":1.95,"exponent":3.13,"exponentError":0.24,"pairs":2,"residual":0.05,"changed":true,"outliers":["gw3"],"covariance":0.4138,"centre":5.23}]}"#,
            #"{"event":"gatewayCalibration","time":"2026-01-01T00:00:50.000Z","pairs":1,"scatter":4.00,"gateways":[{"name":"gw3","offset":0.00,"offsetError":10.00,"exponent":2.50,"exponentError":1.00,"pairs":1,"residual":0.00,"changed":false,"outliers":[],"covariance":-0.0001,"centre":0.10}]}"#,
        ]
        for (i, text) in calibrationTexts.enumerated() {
            write("calibration_message", "calibration-\(i)", Array(text.utf8))
        }

        let commandLines: [[String]] = [
            ["range", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1", "--minor", "0x2", "--hci", "btsnoop:x", "--index", "1"],
            ["range", "--region", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1", "--interval=500ms", "--exit-after", "2.5s",
             "--scan-interval", "50ms", "--scan-window", "25ms", "--active", "--duration", "1m"],
            ["advertise", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1", "--minor", "2",
             "--measured-power", "-59", "--interval", "100ms", "--tx-power", "-4", "--connectable", "BEACON_HCI=serial:/dev/ttyS0,115200"],
            ["advertise", "--help"],
            ["advertise", "--format", "altbeacon", "--id1", "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6", "--id2", "1", "--id3", "0x2",
             "--company-id", "0x0118", "--reserved", "0xAB", "--measured-power", "-59"],
            ["advertise", "--format", "eddystone-uid", "--namespace", "EDD1EBEAC04E5DEFA017", "--instance", "0BDB87539B67",
             "--tx-power-at-0m", "-18", "--legacy"],
            ["advertise", "--format", "eddystone-url", "--url", "https://www.example.com/", "--measured-power", "-62"],
            ["scan", "--format", "eddystone", "--format", "ibeacon", "--min-rssi", "-70", "--uuid", "E2C5", "--namespace", "0001",
             "--interval", "2s", "--hci", "btsnoop:x"],
            ["range", "--region", "a=altbeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1:0", "--region", "eddystone:00010203040506070809:0A0B0C0D0E0F"],
        ]
        for (i, line) in commandLines.enumerated() {
            write("arguments", "argv-\(i)", Array(line.joined(separator: "\0").utf8))
        }

        // Setup byte (2 regions, duration), region shapes, exit-after, interval, duration, then steps:
        // scan enable exchange, reports of a few beacons, an advance, a raw event.
        write("range_session", "scan-and-report", [0x05, 0x00, 0x03, 10, 10, 0x10, 0x00,
                                                   0x05, 0x00, 0x00, 0x01, 0x00,
                                                   0x01, 0x64, 0x00, 0x02, 0xC5, 0xC4,
                                                   0x0A, 0xE8, 0x03, 0x06, 0xC5, 0xB0,
                                                   0x04, 0x10, 0x27,
                                                   0x00, 0x00, 0x00, 0x03, 0x3E, 0x01, 0x02])
    }
}
