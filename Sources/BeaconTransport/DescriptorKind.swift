import Glibc

/// What a descriptor is open on, as far as writing to it is concerned.
public enum DescriptorKind: Equatable, Sendable {
    /// A regular file: a write that fails part-way can be taken back (ftruncate).
    case regularFile
    /// A terminal, /dev/null, /dev/full.
    case characterDevice
    /// A pipe, socket or FIFO, or a descriptor that cannot be examined.
    case other

    public init(_ descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            self = .other
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFCHR: self = .characterDevice
        default: self = .other
        }
    }
}
