import BeaconCore

// Beacon decoders: IBeacon.find agrees with a walk of the AD structures, a decoded beacon re-encodes
// to the manufacturer data it came from, and sightings agree with the decoded whole reports.

/// The first iBeacon found by walking the structures, stopping at the first malformed one.
func firstBeaconByWalking(_ data: ArraySlice<UInt8>) -> IBeacon? {
    var found: IBeacon?
    var walker = ADWalker(data)
    do {
        while let structure = try walker.next() {
            if found == nil, structure.type == .manufacturerSpecificData { found = IBeacon(manufacturerData: structure.value) }
        }
    } catch {
        // Structures before the malformed one count; `found` holds what they gave.
    }
    return found
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBeaconDecoders(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)

    // As advertising data.
    let found = IBeacon.find(inAdvertisingData: bytes[...])
    require(found == firstBeaconByWalking(bytes[...]), "find \(String(describing: found)) disagrees with the walk")

    // As manufacturer data.
    if let beacon = IBeacon(manufacturerData: bytes[...]) {
        require(beacon.manufacturerData.elementsEqual(bytes.prefix(IBeacon.manufacturerDataLength)),
                "manufacturer data does not re-encode")
        require(IBeacon.find(inAdvertisingData: beacon.advertisingData[...]) == beacon, "advertising data does not re-decode")
    }

    // As an event: every sighting comes from a decoded report carrying an iBeacon.
    let time = Timestamp(microseconds: 1_800_000_000_000_000)
    var sightings: [Sighting] = []
    var sightingError: DecodeError?
    do {
        try SightingDecoder.forEachSighting(inEvent: bytes[...], at: time) { sightings.append($0) }
    } catch {
        sightingError = error
        _ = error.description
    }
    if let event = try? HCIEvent.decode(bytes) {
        switch event {
        case .leMeta(.advertisingReport(let reports)), .leMeta(.extendedAdvertisingReport(let reports)):
            // Fragments of an extended advertisement, and the reports that end their chains, carry no sighting.
            var chains = FragmentChains()
            let expected = reports.filter { chains.isWhole($0) }.compactMap { SightingDecoder.sighting(from: $0, at: time) }
            require(sightingError == nil && sightings == expected, "sightings \(sightings) != \(expected)")
        default:
            require(sightings.isEmpty && sightingError == nil, "sightings from a non-report event")
        }
    }
    return 0
}
