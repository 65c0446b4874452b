/// Diagnostics quote what the user gave (paths, `--hci` and `BEACON_HCI` values, option names): control
/// characters in them are written as `\xHH` (or `\u{HHHH}` above 0xFF), so stderr never carries a terminal
/// escape sequence, a carriage return or a line break that beacon did not write itself.
enum DiagnosticEscaping {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            result += scalar.value <= 0xFF ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{\(hex)}"
        }
        return result
    }

    /// C0 controls, DEL and C1 controls (which some terminals also obey).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
