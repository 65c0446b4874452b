/// Incremental btsnoop parser: the caller appends bytes as it reads the file and pulls records;
/// `next()` returns nil when more bytes are needed. Errors carry the offset in the file.
///
/// Records are stepped by their included length. Linux monitor (2001) captures may hold several
/// controllers: with no `indexFilter` the first controller index that carries an HCI packet is
/// used and the others are skipped; `controllerIndexes` lists every index that carried one.
public struct BtsnoopReader {
    /// The file header, once its 16 bytes have arrived.
    public private(set) var header: BtsnoopHeader?
    /// The controller to keep in a Linux monitor capture; nil picks the first one that carries packets.
    public let indexFilter: UInt16?
    /// The controller whose packets `next()` returns (Linux monitor captures only).
    public private(set) var selectedIndex: UInt16?
    /// Controller indexes that carried HCI packets so far, in the order first seen.
    public private(set) var controllerIndexes: [UInt16] = []
    /// One bit per controller index, set once it is in `controllerIndexes`: a capture that cycles through
    /// many indexes costs a bit test per record, not a search.
    private var seenIndexes = [UInt64](repeating: 0, count: 65_536 / 64)
    /// Records `next()` passed over: monitor records that are not HCI packets, and other controllers' packets.
    public private(set) var skippedRecordCount = 0

    private var buffer = ReadBuffer()

    public init(indexFilter: UInt16? = nil) {
        self.indexFilter = indexFilter
        self.selectedIndex = indexFilter
    }

    /// File offset of the first byte not yet consumed.
    public var fileOffset: Int { buffer.offset }
    /// Bytes appended but not yet consumed.
    public var pendingByteCount: Int { buffer.count }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer.append(bytes)
    }

    /// Lets `read` write up to `count` bytes of the capture straight into the reader's buffer (see
    /// `ReadBuffer.fill`); returns what `read` returned.
    public mutating func fill(upTo count: Int, _ read: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Int {
        buffer.fill(upTo: count, read)
    }

    /// The next HCI packet of the selected controller, copied out of the buffer; nil when more bytes are needed.
    public mutating func next() throws(DecodeError) -> BtsnoopRecord? {
        try nextView().map(BtsnoopRecord.init)
    }

    /// Hands the HCI packets of the selected controller read so far to `body` in place, with their
    /// capture times, in order, until it returns false (after taking that one) or more bytes are needed:
    /// what a replay reads every record with, a read's records in one call. A recording's notes of its
    /// wall clock (`WallClockNote`) come in their place among the packets.
    public mutating func forEachPacket(_ body: (TransportPacket) -> Bool) throws(DecodeError) {
        while let raw = try nextRawRecord() {
            let next: TransportPacket
            if let record = try interpret(raw) {
                next = TransportPacket(record.packet, record.direction, captureTime: record.timestamp)
            } else if let offset = wallClockNote(raw) {
                next = TransportPacket(recordedWallOffset: offset, captureTime: raw.timestamp)
            } else {
                skippedRecordCount += 1
                continue
            }
            guard body(next) else { return }
        }
    }

    /// The offset a Linux monitor System Note of beacon's gives (see `WallClockNote`), nil for any other record.
    @inline(never)
    private func wallClockNote(_ raw: BtsnoopRawRecord) -> Micros? {
        guard header?.datalink == .linuxMonitor,
              BtsnoopMonitorOpcode(rawValue: UInt16(truncatingIfNeeded: raw.flags)) == .systemNote else { return nil }
        return WallClockNote.offset(in: raw.data)
    }

    /// The next HCI packet of the selected controller in place (valid until the next `append` or
    /// `fill`), nil when more bytes are needed.
    @inline(__always)
    public mutating func nextView() throws(DecodeError) -> BtsnoopRecordView? {
        while let raw = try nextRawRecord() {
            if let record = try interpret(raw) { return record }
            skippedRecordCount += 1
        }
        return nil
    }

    /// The next record as stored, whatever it carries, in place; nil when more bytes are needed.
    @inline(__always)
    public mutating func nextRawRecord() throws(DecodeError) -> BtsnoopRawRecord? {
        if header == nil {
            guard pendingByteCount >= Btsnoop.headerLength else { return nil }
            header = try BtsnoopHeader.decode(buffer.unconsumed.prefix(Btsnoop.headerLength))
            buffer.consume(Btsnoop.headerLength)
        }
        let recordOffset = fileOffset
        let unconsumed = buffer.unconsumedBytes
        // The header's fields are read in place, checked once against its length: this runs once per record.
        guard var f = ByteReader(unconsumed, baseOffset: recordOffset).prefix(Btsnoop.recordHeaderLength) else { return nil }
        let h = (originalLength: try f.u32BigEndian("btsnoop record original length"),
                 includedLength: try f.u32BigEndian("btsnoop record included length"),
                 flags: try f.u32BigEndian("btsnoop record flags"), drops: try f.u32BigEndian("btsnoop record drops"),
                 timestamp: Int64(bitPattern: try f.u64BigEndian("btsnoop record timestamp")))
        guard h.includedLength <= h.originalLength else {
            throw DecodeError(offset: recordOffset + 4, field: "btsnoop record included length", needed: 4, available: 4,
                              reason: "included length \(h.includedLength) is larger than original length \(h.originalLength)")
        }
        guard h.includedLength <= Btsnoop.maximumRecordLength else {
            throw DecodeError(offset: recordOffset + 4, field: "btsnoop record included length", needed: 4, available: 4,
                              reason: "included length \(h.includedLength) is larger than any HCI packet (\(Btsnoop.maximumRecordLength))")
        }
        let length = Int(h.includedLength)
        guard unconsumed.count - Btsnoop.recordHeaderLength >= length else { return nil }
        // The header was read from `unconsumed`, so it has a start: taken once, not tested again.
        let data = UnsafeRawBufferPointer(start: unconsumed.baseAddress.unsafelyUnwrapped + Btsnoop.recordHeaderLength, count: length)
        buffer.consume(Btsnoop.recordHeaderLength + length)
        return BtsnoopRawRecord(fileOffset: recordOffset, originalLength: h.originalLength, flags: h.flags,
                                drops: h.drops, btsnoopTimestamp: h.timestamp, data: data)
    }

    /// Checks that the input ended on a record boundary; call after the last `append` once `next()` returns nil.
    public func finish() throws(DecodeError) {
        let leftover = pendingByteCount
        if header == nil {
            if leftover >= Btsnoop.magic.count, !buffer.unconsumed.prefix(Btsnoop.magic.count).elementsEqual(Btsnoop.magic) {
                _ = try BtsnoopHeader.decode(buffer.unconsumed)
            }
            let found = leftover == 0 ? "empty file" : "truncated header: the file has \(leftover.counted("byte"))"
            throw DecodeError(offset: 0, field: "btsnoop header", needed: Btsnoop.headerLength, available: leftover,
                              reason: "\(found), a btsnoop header needs \(Btsnoop.headerLength)")
        }
        guard leftover > 0 else { return }
        var needed = Btsnoop.recordHeaderLength
        if leftover >= Btsnoop.recordHeaderLength {
            needed += Int(try ByteReader.read(buffer.unconsumed, baseOffset: fileOffset) { reader throws(DecodeError) in
                try reader.skip(4, "btsnoop record original length")
                return try reader.u32BigEndian("btsnoop record included length")
            })
        }
        throw DecodeError(offset: fileOffset, field: "btsnoop record", needed: needed, available: leftover,
                          reason: "truncated record at end of file: needs \(needed) bytes, \(leftover) present")
    }

    /// Adds `index` to `controllerIndexes` the first time it carries a packet. Not inlined: the
    /// bookkeeping would otherwise check that `seenIndexes` is unshared on every record of every capture.
    @inline(never)
    private mutating func note(_ index: UInt16) {
        let (word, bit) = (Int(index >> 6), UInt64(1) << (index & 63))
        if seenIndexes[word] & bit == 0 {
            seenIndexes[word] |= bit
            controllerIndexes.append(index)
        }
    }

    /// The HCI packet a raw record carries, nil for records to skip.
    @inline(__always)
    private mutating func interpret(_ raw: BtsnoopRawRecord) throws(DecodeError) -> BtsnoopRecordView? {
        guard let datalink = header?.datalink else { return nil }
        let isTruncated = raw.data.count < Int(raw.originalLength)
        switch datalink {
        case .hciUnencapsulated:
            let direction: PacketDirection = raw.flags & 0x01 != 0 ? .received : .sent
            let kind: HCIPacketKind = raw.flags & 0x02 != 0 ? (direction == .received ? .event : .command) : .aclData
            return BtsnoopRecordView(packet: HCIPacketView(kind: kind, payload: raw.data), direction: direction,
                                     timestamp: raw.timestamp, fileOffset: raw.fileOffset, isTruncated: isTruncated)
        case .h4:
            let dataOffset = raw.fileOffset + Btsnoop.recordHeaderLength
            guard let indicator = raw.data.first else {
                throw DecodeError(offset: dataOffset, field: "H4 packet indicator", needed: 1, available: 0,
                                  reason: "empty H4 record (no packet indicator)")
            }
            guard let kind = HCIPacketKind(rawValue: indicator) else {
                throw DecodeError(offset: dataOffset, field: "H4 packet indicator", needed: 1, available: raw.data.count,
                                  reason: "unknown packet indicator 0x\(Hex.encode([indicator]))")
            }
            let direction: PacketDirection = raw.flags & 0x01 != 0 ? .received : .sent
            return BtsnoopRecordView(packet: HCIPacketView(kind: kind, payload: UnsafeRawBufferPointer(rebasing: raw.data.dropFirst())),
                                     direction: direction, timestamp: raw.timestamp, fileOffset: raw.fileOffset,
                                     isTruncated: isTruncated)
        case .linuxMonitor:
            let opcode = BtsnoopMonitorOpcode(rawValue: UInt16(truncatingIfNeeded: raw.flags))
            guard let (kind, direction) = opcode.hciPacket else { return nil }
            let index = UInt16(truncatingIfNeeded: raw.flags >> 16)
            note(index)
            if selectedIndex == nil { selectedIndex = index }
            guard index == selectedIndex else { return nil }
            return BtsnoopRecordView(packet: HCIPacketView(kind: kind, payload: raw.data), direction: direction,
                                     timestamp: raw.timestamp, controllerIndex: index, fileOffset: raw.fileOffset,
                                     isTruncated: isTruncated)
        }
    }
}
