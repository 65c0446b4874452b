import Testing
@testable import BeaconCore

@Suite struct AdvertisingDataTests {
    func bytes(_ fields: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try #require(Hex.decode(fields.joined()), sourceLocation: sourceLocation)
    }

    static let sample = [
        "020106",     // length 2, Flags: LE General Discoverable, BR/EDR Not Supported
        "0509",       // length 5, Complete Local Name
        "42454143",   // "BEAC"
        "020AF4",     // length 2, Tx Power Level -12 dBm
        "0442",       // length 4, AD type 0x42 (not named here)
        "AABBCC",     // its value
        "03FF4C00",   // length 3, Manufacturer Specific Data, company 0x004C, no payload
    ]

    @Test func parsesEveryStructure() throws {
        let data = try bytes(Self.sample)
        let structures = try adStructures(data[...])
        #expect(structures.map(\.type) == [.flags, .completeLocalName, .txPowerLevel, ADType(0x42), .manufacturerSpecificData])
        #expect(structures.map { Array($0.value) } == [[0x06], Array("BEAC".utf8), [0xF4], [0xAA, 0xBB, 0xCC], [0x4C, 0x00]])
        #expect(AdvertisingData.build(structures.map { ($0.type, Array($0.value)) }) == data)
    }

    @Test func buildsGoldenBytes() throws {
        let built = AdvertisingData.build([
            (.flags, [ADFlags.leGeneralDiscoverable | ADFlags.brEdrNotSupported]),
            (.shortenedLocalName, Array("b".utf8)),
            (ADType(0x99), []),
        ])
        #expect(built == (try bytes([
            "020106", // Flags 0x06
            "020862", // Shortened Local Name "b"
            "0199",   // AD type 0x99, empty value
        ])))
        #expect(try adStructures(built[...]).last == ADStructure(type: ADType(0x99), value: [][...]))
    }

    @Test func zeroLengthEndsTheSignificantPart() throws {
        // Legacy advertising data is padded with zeros to 31 bytes; what follows is not parsed.
        let data = try bytes(["020106", "00", "FFFFFF"])
        let structures = try adStructures(data[...])
        #expect(structures == [ADStructure(type: .flags, value: [0x06][...])])
        #expect(try adStructures([][...]).isEmpty)
    }

    @Test func structureRunningPastTheDataThrows() throws {
        // Second structure declares 5 bytes (type + 4) where only type + 2 remain.
        let data = try bytes(["020106", "05FF", "4C00"])
        #expect(throws: DecodeError(offset: 5, field: "AD structure value", needed: 4, available: 2)) {
            try adStructures(data[...])
        }
        // The walker hands out the structures before the malformed one.
        var walker = ADWalker(data[...])
        #expect(try walker.next()?.type == .flags)
        #expect(throws: DecodeError.self) { try walker.next() }
        // A length byte with no type after it.
        #expect(throws: DecodeError(offset: 4, field: "AD structure type", needed: 1, available: 0)) {
            try adStructures(try bytes(["020106", "01"])[...])
        }
    }

    @Test func errorOffsetsCountFromTheStartOfTheSlice() throws {
        let padded = try bytes(["EEEE", "0509AA"])
        #expect(throws: DecodeError(offset: 2, field: "AD structure value", needed: 4, available: 1)) {
            try adStructures(padded[2...])
        }
    }

    @Test func valuesAreViews() throws {
        let data = try bytes(Self.sample)
        #expect(try adStructures(data[...]).map(\.value.startIndex) == [2, 5, 11, 14, 19])
    }

    @Test func names() {
        #expect(ADType.flags.name == "Flags")
        #expect(ADType.manufacturerSpecificData.name == "Manufacturer Specific Data")
        #expect(ADType.completeList128BitUUIDs.rawValue == 0x07)
        #expect(ADType.incompleteList16BitUUIDs.rawValue == 0x02)
        #expect(ADType.shortenedLocalName.rawValue == 0x08)
        #expect(ADType.completeLocalName.rawValue == 0x09)
        #expect(ADType.txPowerLevel.rawValue == 0x0A)
        #expect(ADType.serviceData16BitUUID.rawValue == 0x16)
        #expect(ADType(0x42).name == "AD type 0x42")
        #expect(ADFlags.generalDiscoverableLEOnly == 0x06)
    }
}

/// Every AD structure of the significant part of `data`, as the walker hands them out.
func adStructures(_ data: ArraySlice<UInt8>) throws(DecodeError) -> [ADStructure] {
    var walker = ADWalker(data)
    var structures: [ADStructure] = []
    while let structure = try walker.next() { structures.append(structure) }
    return structures
}
