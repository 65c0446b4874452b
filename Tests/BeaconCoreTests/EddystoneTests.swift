import BeaconSimulation
import Testing
@testable import BeaconCore

@Suite struct EddystoneTests {
    static func frame(_ hex: [String]) throws -> BeaconFrame? {
        BeaconFrame.find(inAdvertisingData: try #require(Hex.decode(hex.joined()))[...])
    }

    static let uid = [
        "020106",                 // Flags: LE General Discoverable, BR/EDR Not Supported
        "0303AAFE",               // Complete List of 16-bit Service UUIDs: 0xFEAA
        "17",                     // length 23
        "16",                     // AD type: Service Data - 16-bit UUID
        "AAFE",                   // 0xFEAA, little-endian
        "00",                     // frame type: UID
        "EC",                     // Tx power at 0 m: -20 dBm
        "00010203040506070809",   // namespace (10 bytes)
        "0A0B0C0D0E0F",           // instance (6 bytes)
        "0000",                   // RFU
    ]

    @Test func uidFrame() throws {
        let frame = try #require(try Self.frame(Self.uid))
        let namespace = try #require(EddystoneNamespace("00010203040506070809"))
        let instance = try #require(EddystoneInstance("0a0b0c0d0e0f"))
        #expect(frame == .eddystone(.uid(txPower: -20, EddystoneUID(namespace: namespace, instance: instance))))
        #expect(frame.format == .eddystoneUID)
        #expect(frame.identity == .eddystoneUID(EddystoneUID(namespace: namespace, instance: instance)))
        // Tx power is at 0 m: the power at 1 m is 41 dB less.
        #expect(frame.measuredPower == -61)
        #expect(namespace.description == "00010203040506070809")
        #expect(instance.description == "0A0B0C0D0E0F")
        #expect(namespace.high == 0x0001 && namespace.low == 0x0203_0405_0607_0809)
        // Beacons that leave out the two RFU bytes are read the same.
        var short = Self.uid
        short[2] = "15"
        short.removeLast()
        #expect(try Self.frame(short) == frame)
    }

    @Test("the measured power at 1 m never wraps")
    func measuredPowerClamps() {
        #expect(EddystoneFrame.measuredPower(txPower: -100) == -128)
        #expect(EddystoneFrame.measuredPower(txPower: 20) == -21)
    }

    @Test func urlFrame() throws {
        let hex = [
            "0303AAFE",           // Complete List of 16-bit Service UUIDs: 0xFEAA
            "10",                 // length 16
            "16AAFE",             // Service Data, UUID 0xFEAA
            "10",                 // frame type: URL
            "EB",                 // Tx power at 0 m: -21 dBm
            "01",                 // scheme: https://www.
            "6578616D706C65",     // "example"
            "00",                 // ".com/"
            "6161",               // "aa"
        ]
        let frame = try #require(try Self.frame(hex))
        guard case .eddystone(.url(let txPower, let url)) = frame else { Issue.record("not a URL frame: \(frame)"); return }
        #expect(txPower == -21)
        #expect(url.url == "https://www.example.com/aa")
        #expect(url.encoded == [0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x00, 0x61, 0x61])
        #expect(frame.identity == nil)
        #expect(frame.format == .eddystoneURL)
    }

    @Test("every scheme and every expansion code")
    func schemesAndExpansions() throws {
        for (code, scheme) in ["http://www.", "https://www.", "http://", "https://"].enumerated() {
            let data = try #require(Hex.decode("AAFE10F4" + Hex.encode([UInt8(code)]) + "78"))
            guard case .url(_, let url)? = try EddystoneFrame.decode(serviceData: data[...]) else { Issue.record(); continue }
            #expect(url.url == scheme + "x")
        }
        let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/", ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]
        // 14 codes do not fit one frame's 17 bytes with a letter between each: two frames.
        for group in [Array(0..<7), Array(7..<14)] {
            let encoded: [UInt8] = group.flatMap { (code: Int) -> [UInt8] in [UInt8(code), 0x61] }
            let data: [UInt8] = [0xAA, 0xFE, 0x10, 0x00, 0x02] + encoded
            guard case .url(_, let url)? = try EddystoneFrame.decode(serviceData: data[...]) else { Issue.record(); continue }
            #expect(url.url == "http://" + group.map { expansions[$0] + "a" }.joined())
        }
        // The longest URL: 17 encoded bytes.
        let longest: [UInt8] = [0xAA, 0xFE, 0x10, 0x00, 0x03] + [UInt8](repeating: 0x7A, count: 17)
        guard case .url(_, let url)? = try EddystoneFrame.decode(serviceData: longest[...]) else { Issue.record(); return }
        #expect(url.url == "https://" + String(repeating: "z", count: 17))
    }

    @Test("reserved schemes and bytes, and a URL too long, are errors naming their offset")
    func invalidURLs() throws {
        func error(_ data: [UInt8]) -> DecodeError? {
            do throws(DecodeError) {
                _ = try EddystoneFrame.decode(serviceData: data[...])
                return nil
            } catch {
                return error
            }
        }
        #expect(error([0xAA, 0xFE, 0x10, 0x00, 0x04, 0x61]) == DecodeError(
            offset: 4, field: "URL scheme prefix", needed: 0, available: 2, reason: "reserved scheme prefix 0x04"))
        for reserved: UInt8 in [0x0E, 0x20, 0x7F, 0xFF] {
            #expect(error([0xAA, 0xFE, 0x10, 0x00, 0x02, 0x61, reserved])?.description
                == "encoded URL at offset 6: reserved byte 0x\(Hex.encode([reserved]))")
        }
        let tooLong: [UInt8] = [0xAA, 0xFE, 0x10, 0x00, 0x02] + [UInt8](repeating: 0x61, count: 18)
        #expect(error(tooLong)?.description
            == "encoded URL at offset 5: 18 bytes, at most 17")
        // A malformed frame is no beacon; a beacon after it in the same data still counts.
        let bad = AdvertisingData.build([(.serviceData16BitUUID, [0xAA, 0xFE, 0x10, 0x00, 0x09])])
        #expect(BeaconFrame.find(inAdvertisingData: bad[...]) == nil)
        let iBeacon = IBeacon(identity: IBeaconID(uuid: BeaconUUID(high: 1, low: 2), major: 3, minor: 4), measuredPower: -59)
        let both = bad + iBeacon.advertisingData
        #expect(BeaconFrame.find(inAdvertisingData: both[...]) == .iBeacon(iBeacon))
    }

    static let tlm = [
        "11",                     // length 17
        "16AAFE",                 // Service Data, UUID 0xFEAA
        "20",                     // frame type: TLM
        "00",                     // version 0: unencrypted
        "0BB8",                   // VBATT 3000 mV, big-endian
        "1880",                   // TEMP 24.5 °C (8.8 fixed point)
        "00000100",               // ADV_CNT 256
        "00000E10",               // SEC_CNT 3600 (0.1 s) = 360 s
    ]

    @Test func tlmFrame() throws {
        let frame = try #require(try Self.frame(Self.tlm))
        guard case .eddystone(.tlm(let tlm)) = frame else { Issue.record("not TLM: \(frame)"); return }
        #expect(tlm.battery == 3000)
        #expect(tlm.temperature == 24.5)
        #expect(tlm.advertisementCount == 256)
        #expect(tlm.uptime == 360)
        #expect(frame.identity == nil && frame.measuredPower == nil && frame.format == .eddystoneTLM)
        var line = JSONWriter()
        line.object { OutputLine.write(tlm, to: &$0) }
        #expect(line.text == #"{"telemetry":{"batteryMillivolts":3000,"temperature":24.50,"advertisementCount":256,"uptime":360.0}}"#)
    }

    @Test("negative temperatures, 0x8000 not supported, battery 0 not measured")
    func tlmEdges() throws {
        func tlm(_ hex: String) throws -> EddystoneTLM? {
            guard case .tlm(let t)? = try EddystoneFrame.decode(serviceData: try #require(Hex.decode("AAFE2000" + hex))[...]) else { return nil }
            return t
        }
        let cold = try #require(try tlm("0000" + "FF80" + "FFFFFFFF" + "FFFFFFFF"))
        #expect(cold.temperature == -0.5)
        #expect(cold.battery == nil)
        #expect(cold.advertisementCount == UInt32.max)
        #expect(cold.uptime == 429_496_729.5)
        let unsupported = try #require(try tlm("0BB8" + "8000" + "00000000" + "00000000"))
        #expect(unsupported.temperature == nil)
        var line = JSONWriter()
        line.object { OutputLine.write(cold, to: &$0) }
        #expect(line.text == #"{"telemetry":{"batteryMillivolts":null,"temperature":-0.50,"advertisementCount":4294967295,"uptime":429496729.5}}"#)
        #expect(throws: DecodeError.self) { try tlm("0BB8" + "8000") }
    }

    @Test("encrypted TLM and EID are recognised and kept as sent; an unknown TLM version is an error")
    func encryptedAndEID() throws {
        let etlmHex = [
            "AAFE", "20", "01",                 // UUID 0xFEAA; TLM, version 1: encrypted
            "00112233445566778899AABB",         // ETLM (12 bytes)
            "CCDD",                             // salt
            "EEFF",                             // MIC
        ]
        let etlm = try #require(Hex.decode(etlmHex.joined()))
        let frame = try #require(try EddystoneFrame.decode(serviceData: etlm[...]))
        #expect(frame == .encryptedTLM(EncryptedTLM(high: 0x0011_2233_4455_6677, low: 0x8899_AABB_CCDD_EEFF)))
        #expect(frame.format == .eddystoneTLM)
        if case .encryptedTLM(let data) = frame { #expect(data.description == "00112233445566778899AABBCCDDEEFF") }
        let eid = try #require(Hex.decode("AAFE" + "30" + "F6" + "0123456789ABCDEF")) // EID, Tx power -10, identifier
        #expect(try EddystoneFrame.decode(serviceData: eid[...]) == .eid(txPower: -10, 0x0123_4567_89AB_CDEF))
        let future = try #require(Hex.decode("AAFE" + "20" + "02" + "00"))
        #expect(throws: DecodeError(offset: 3, field: "TLM version", needed: 0, available: 2, reason: "unknown version 0x02")) {
            try EddystoneFrame.decode(serviceData: future[...])
        }
    }

    @Test("not Eddystone: another service UUID, an unknown frame type, nothing after the UUID")
    func notEddystone() throws {
        #expect(try EddystoneFrame.decode(serviceData: [0x0F, 0x18, 0x00, 0x64][...]) == nil)
        #expect(try EddystoneFrame.decode(serviceData: [0xAA, 0xFE, 0x40, 0x00][...]) == nil)
        #expect(try EddystoneFrame.decode(serviceData: [0xAA, 0xFE][...]) == nil)
    }

    @Test("every truncation of every frame is an error or no frame, never a trap: no frame before the frame type, an error after it until the frame is whole")
    func truncations() throws {
        // The service data of each frame, and its length without the UID's optional RFU bytes.
        for (hex, whole) in [(Self.uid.dropFirst(2).joined(), 20), (Self.tlm.joined(), 16)] {
            let data = try #require(Hex.decode(hex))
            let value = Array(data.dropFirst(2))
            for cut in 0..<value.count {
                let truncated = value.prefix(cut)
                if cut < 3 {
                    #expect(try EddystoneFrame.decode(serviceData: truncated) == nil)
                } else if cut < whole {
                    #expect(throws: DecodeError.self) { try EddystoneFrame.decode(serviceData: truncated) }
                } else {
                    #expect(try EddystoneFrame.decode(serviceData: truncated) != nil)
                }
            }
        }
    }

    @Test("read in place, service data gives exactly the frames the checked decoder gives, and nothing where it throws")
    func inPlaceReadingAgreesWithTheDecoder() throws {
        let frames = try [
            "AAFE00E700112233445566778899AABBCCDDEEFF0000", // UID with its RFU bytes
            "AAFE00E700112233445566778899AABBCCDDEEFF",     // UID without them
            "AAFE10F403676F6F676C6507",                     // URL https://google.com
            "AAFE200000000000000000000000000000",           // TLM
            "AAFE2001" + String(repeating: "AB", count: 16), // encrypted TLM
            "AAFE30F60123456789ABCDEF",                     // EID
        ].map { try #require(Hex.decode($0)) }
        var generator = SplitMix64(seed: 11)
        var checked = 0
        for frame in frames {
            // Every truncation, and single-byte changes all through the frame.
            var variants = (0...frame.count).map { Array(frame.prefix($0)) }
            for _ in 0..<300 {
                var changed = frame
                changed[Int(generator.next() % UInt64(frame.count))] = UInt8(truncatingIfNeeded: generator.next())
                if generator.next() % 4 == 0 { changed += [UInt8(truncatingIfNeeded: generator.next())] }
                variants.append(changed)
            }
            for data in variants {
                let decoded = (try? EddystoneFrame.decode(serviceData: data[...])) ?? nil
                let inPlace = BeaconFrame.find(inAdvertisingData: AdvertisingData.build([(.serviceData16BitUUID, data)])[...])
                #expect(inPlace == decoded.map(BeaconFrame.eddystone), "\(Hex.encode(data))")
                checked += decoded == nil ? 0 : 1
            }
        }
        // Most variants still decode: the comparison is not only of nils.
        #expect(checked > frames.count * 150)
    }
}
