import BeaconCore

// AD walker: the structures it hands out rebuild the significant part byte for byte, an error names an
// offset inside the input, and what follows the significant part is either nothing or the zero length byte.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdvertisingData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    var visited: [ADStructure] = []
    var visitError: DecodeError?
    var walker = ADWalker(bytes[...])
    do {
        while let structure = try walker.next() { visited.append(structure) }
    } catch {
        visitError = error
    }
    if let error = visitError {
        require(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside \(bytes.count) bytes")
        _ = error.description
        return 0
    }
    let structures = visited
    let rebuilt = AdvertisingData.build(structures.map { ($0.type, Array($0.value)) })
    require(rebuilt.elementsEqual(bytes.prefix(rebuilt.count)), "rebuilt bytes are not the input's prefix")
    require(rebuilt.count == bytes.count || bytes[rebuilt.count] == 0, "parse stopped at a non-zero length byte")
    for structure in structures { _ = structure.type.name }
    return 0
}
