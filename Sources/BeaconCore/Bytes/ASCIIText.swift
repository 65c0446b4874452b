/// A value whose text is a fixed number of ASCII characters that JSON needs no escapes for (a UUID, a
/// device address, a time): JSON lines write it in place, with no String made for it.
public protocol ASCIIText: CustomStringConvertible {
    /// The number of characters of the text.
    static var textLength: Int { get }
    /// Writes the text into `text`, which holds exactly `textLength` bytes.
    func write(into text: UnsafeMutableBufferPointer<UInt8>)
}

extension ASCIIText {
    public var description: String {
        String(unsafeUninitializedCapacity: Self.textLength) { text in
            write(into: UnsafeMutableBufferPointer(rebasing: text[..<Self.textLength]))
            return Self.textLength
        }
    }
}
