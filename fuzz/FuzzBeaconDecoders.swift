import BeaconCore

// Beacon decoders: the search for beacon frames agrees with a walk of the AD structures, a decoded
// iBeacon re-encodes to the manufacturer data it came from, and sightings agree with the decoded whole
// reports.

/// The first beacon frame found by walking the structures, skipping malformed Eddystone frames and
/// stopping at the first malformed structure.
func firstFrameByWalking(_ data: ArraySlice<UInt8>) -> BeaconFrame? {
    var walker = ADWalker(data)
    do {
        while let structure = try walker.next() {
            do {
                if let frame = try BeaconFrame.decode(structure) { return frame }
            } catch {
                // A malformed Eddystone frame is no frame; the walk goes on.
            }
        }
    } catch {
        // Structures before the malformed one count.
    }
    return nil
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBeaconDecoders(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)

    // As advertising data.
    let found = BeaconFrame.find(inAdvertisingData: bytes[...])
    require(found == firstFrameByWalking(bytes[...]), "find \(String(describing: found)) disagrees with the walk")

    // As manufacturer data.
    if let beacon = IBeacon(manufacturerData: bytes[...]) {
        require(beacon.manufacturerData.elementsEqual(bytes.prefix(IBeacon.manufacturerDataLength)),
                "manufacturer data does not re-encode")
        require(BeaconFrame.find(inAdvertisingData: beacon.advertisingData[...]) == .iBeacon(beacon), "advertising data does not re-decode")
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
            let expected = reports.filter { chains.isWhole($0) }.compactMap { sighting(of: $0, at: time) }
            require(sightingError == nil && sightings == expected, "sightings \(sightings) != \(expected)")
        default:
            require(sightings.isEmpty && sightingError == nil, "sightings from a non-report event")
        }
    }
    return 0
}
