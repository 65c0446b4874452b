import BeaconCore

// btsnoop reader, every datalink: the file read whole and in small chunks gives the same records and
// the same error, records move forward through the file, the index filter holds, and each record
// written back with BtsnoopWriter reads back the same.

struct ReadResult: Equatable {
    var records: [BtsnoopRecord] = []
    var error: DecodeError?
    var controllerIndexes: [UInt16] = []
    var skipped = 0
}

func read(_ file: ArraySlice<UInt8>, chunk: Int, indexFilter: UInt16?) -> ReadResult {
    var reader = BtsnoopReader(indexFilter: indexFilter)
    var result = ReadResult()
    var offset = file.startIndex
    do {
        repeat {
            let end = min(file.endIndex, offset + chunk)
            reader.append(file[offset..<end])
            offset = end
            while let record = try reader.next() {
                // Views into the reader's buffer do not outlive the next append: keep copies.
                var copy = record
                copy.packet.payload = ArraySlice(Array(record.packet.payload))
                result.records.append(copy)
            }
        } while offset < file.endIndex
        try reader.finish()
    } catch {
        result.error = error
    }
    result.controllerIndexes = reader.controllerIndexes
    result.skipped = reader.skippedRecordCount
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBtsnoopReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzCursor(fuzzInput(data, size))
    let chunk = Int(input.u8() % 61) + 1
    let mode = input.u8()
    let indexFilter: UInt16? = mode & 0x10 != 0 ? UInt16(mode >> 5) : nil
    // Low bits: 0 takes the input as the whole file; 1...3 put a valid header of one datalink first,
    // so the fuzzer spends its time on records.
    var file: [UInt8] = []
    switch mode & 0x03 {
    case 1: file = BtsnoopWriter(datalink: .hciUnencapsulated).header
    case 2: file = BtsnoopWriter(datalink: .h4).header
    case 3: file = BtsnoopWriter(datalink: .linuxMonitor).header
    default: break
    }
    file.append(contentsOf: input.rest())

    let whole = read(file[...], chunk: max(file.count, 1), indexFilter: indexFilter)
    let chunked = read(file[...], chunk: chunk, indexFilter: indexFilter)
    require(whole == chunked, "whole read != read in chunks of \(chunk)")
    if let error = whole.error {
        _ = error.description
        require(error.offset >= 0 && error.offset <= file.count, "error offset \(error.offset) outside \(file.count) bytes")
    }
    guard let datalink = try? BtsnoopHeader.decode(file[...]).datalink else {
        require(whole.records.isEmpty, "records from a file without a valid header")
        return 0
    }
    var previousOffset = Btsnoop.headerLength - 1
    for record in whole.records {
        require(record.fileOffset > previousOffset && record.fileOffset + Btsnoop.recordHeaderLength <= file.count,
                "record offset \(record.fileOffset) after \(previousOffset)")
        previousOffset = record.fileOffset
        if datalink == .linuxMonitor {
            require(record.controllerIndex != nil && whole.controllerIndexes.contains(record.controllerIndex ?? 0),
                    "monitor record without a listed controller")
            if let indexFilter { require(record.controllerIndex == indexFilter, "record of another controller") }
            require(record.controllerIndex == whole.records.first?.controllerIndex, "records of two controllers")
        } else {
            require(record.controllerIndex == nil, "controller index outside a monitor capture")
        }
        let writer = BtsnoopWriter(datalink: datalink)
        var reader = BtsnoopReader()
        var bytes = writer.header
        writer.appendRecord(record.packet, direction: record.direction, timestamp: record.timestamp,
                            controllerIndex: record.controllerIndex ?? 0, to: &bytes)
        reader.append(bytes)
        let again = try? reader.next()
        require(again?.packet == record.packet && again?.direction == record.direction
                && again?.timestamp == record.timestamp && again?.controllerIndex == record.controllerIndex,
                "record at \(record.fileOffset) does not survive writing back")
    }
    require(Set(whole.controllerIndexes).count == whole.controllerIndexes.count, "controller index listed twice")
    return 0
}
