import BeaconCore

// H4 framer: the same stream fed whole and in small chunks frames into the same packets, the packets'
// H4 bytes are exactly the stream's prefix, and an unknown indicator is the only error.

struct FramingResult: Equatable {
    var packets: [[UInt8]] = []
    /// The error's description: `available` counts what happened to be buffered, so it is left out.
    var error: String?
    var pending = 0
}

func frame(_ stream: ArraySlice<UInt8>, chunk: Int) -> FramingResult {
    var framer = H4Framer()
    var result = FramingResult()
    var offset = stream.startIndex
    repeat {
        let end = min(stream.endIndex, offset + chunk)
        framer.append(stream[offset..<end])
        offset = end
        do {
            while let packet = try framer.nextView()?.packet { result.packets.append(packet.h4Bytes) }
        } catch {
            result.error = error.description
            break
        }
    } while offset < stream.endIndex
    // After an error the chunked feed stops appending, so pending bytes only compare on success.
    result.pending = result.error == nil ? framer.pendingByteCount : -1
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzH4Framer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzCursor(fuzzInput(data, size))
    let chunk = Int(input.u8() % 17) + 1
    let stream = input.rest()
    let whole = frame(stream, chunk: max(stream.count, 1))
    let chunked = frame(stream, chunk: chunk)
    require(whole == chunked, "whole \(whole) != chunked by \(chunk) \(chunked)")
    let framed = whole.packets.flatMap { $0 }
    require(framed.elementsEqual(stream.prefix(framed.count)), "framed bytes are not the stream's prefix")
    require(whole.error != nil || whole.pending == stream.count - framed.count, "pending \(whole.pending) of \(stream.count) after \(framed.count)")
    if let error = whole.error {
        let indicator = stream[stream.startIndex + framed.count]
        require(HCIPacketKind(rawValue: indicator) == nil, "error \(error) on known indicator \(indicator)")
    }
    return 0
}
