import Glibc

/// The terminal a standard stream may be, for progress shown only to a person watching.
public enum Terminal {
    public static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The width in columns of the terminal window `descriptor` is (TIOCGWINSZ); nil when it is no
    /// terminal or the terminal does not know its size (a serial console says 0), and help then takes 80.
    public static func columns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        do throws(SystemError) {
            _ = try syscall("ioctl") { withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) } }
        } catch {
            return nil
        }
        return size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    /// Writes `text` as is (no newline), for a status line rewritten in place with `\r`.
    /// Best effort: a progress line that cannot be shown is not worth an error.
    public static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
