import BeaconMQTT
import BeaconTransport
import Glibc

/// `--mqtt`, `--mqtt-ca`, `--mqtt-password-file` and `BEACON_MQTT_PASSWORD`: which broker, and how to log in,
/// for every command that talks to one.
struct BrokerOptions {
    var address: BrokerAddress
    var caFile: String?
    /// Where the password used came from.
    var passwordSource: PasswordSource?
    /// The URL carries a password (used or not): ps(1) shows it, so the command warns of it.
    var passwordInURL: Bool

    enum PasswordSource: Equatable {
        case url
        case file(String)
        case environment
    }

    /// The password read when no `--mqtt-password-file` is given; it takes the place of the URL's.
    static let passwordVariable = "BEACON_MQTT_PASSWORD"
    /// MQTT's limit for a password (a two-byte length).
    static let maximumPasswordBytes = 65_535

    static let passwordPrecedence = "--mqtt-password-file, else \(passwordVariable), else the URL's password"

    static let ca = OptionSpec("mqtt-ca", .value(placeholder: "file"), "CA certificate (PEM) that vouches for an mqtts:// broker.",
                               default: "the system's certificates")
    static let passwordFile = OptionSpec(
        "mqtt-password-file", .value(placeholder: "file"),
        "Log in to the broker with the password on this file's first line (its newline not included), "
            + "as the user of the --mqtt URL; it wins over \(passwordVariable) and over a password in the URL, "
            + "which ps(1) shows to every user of the machine. Without it, \(passwordVariable) is used when set.")

    /// The options after `--mqtt` itself (`MQTTOptions.mqtt`, worded by each command for its own topics); they need it.
    static let options = [ca, passwordFile]

    /// The broker of `--mqtt`, or nil without it; `--mqtt-ca` and the password are checked and read here, so
    /// a missing file stops the run before it starts rather than on every reconnection.
    static func parse(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) -> BrokerOptions? {
        guard let text = parsed[MQTTOptions.mqtt] else {
            for option in options where parsed[option] != nil {
                throw UsageError("'--\(option.name)' needs '--mqtt'")
            }
            return nil
        }
        var address: BrokerAddress
        switch BrokerAddress.parse(text) {
        case .success(let parsed): address = parsed
        case .failure(let error):
            throw UsageError("Invalid value for '--mqtt <url>': \(error); expected \(BrokerAddress.forms)")
        }
        let caFile = try caFile(parsed, for: address)
        let passwordInURL = address.password != nil
        var source: PasswordSource? = passwordInURL ? .url : nil
        if let path = parsed[Self.passwordFile] {
            address.password = try passwordFromFile(path)
            source = .file(path)
        } else if let secret = environment[passwordVariable], !secret.isEmpty {
            guard !secret.utf8.contains(0) else { throw UsageError("\(passwordVariable) has a NUL byte") }
            address.password = secret
            source = .environment
        }
        if let source, address.username == nil {
            let origin = switch source {
            case .url: "the URL"
            case .file(let path): "'--mqtt-password-file' \(path)"
            case .environment: passwordVariable
            }
            throw UsageError("A password (from \(origin)) needs a user name in the '--mqtt' URL: mqtt://USER@HOST[:PORT][/PREFIX]")
        }
        return BrokerOptions(address: address, caFile: caFile, passwordSource: source, passwordInURL: passwordInURL)
    }

    /// `--mqtt-ca`: only for an mqtts:// broker, and a file that can be read.
    static func caFile(_ parsed: ParsedOptions, for address: BrokerAddress) throws(UsageError) -> String? {
        guard let caFile = parsed[Self.ca] else { return nil }
        guard address.tls else { throw UsageError("'--mqtt-ca' applies only to an mqtts:// broker") }
        // libmosquitto would only say "A TLS error occurred." on every retry.
        guard access(caFile, R_OK) == 0 else {
            throw UsageError("Cannot read '--mqtt-ca <file>' \(caFile): \(String(cString: strerror(errno)))")
        }
        return caFile
    }

    /// The first line of the file at `path`, without its line ending.
    static func passwordFromFile(_ path: String) throws(UsageError) -> String {
        let bytes: [UInt8]
        do {
            // Two bytes past the limit: a line of the longest password and its CR LF.
            bytes = try InputFile.read(path, atMost: maximumPasswordBytes + 2)
        } catch {
            throw UsageError("Cannot read '--mqtt-password-file <file>' \(path): \(error.message)")
        }
        switch firstLine(bytes) {
        case .success(let password): return password
        case .failure(let problem): throw UsageError("'--mqtt-password-file <file>' \(path) \(problem.description)")
        }
    }

    /// Why a password file's contents hold no usable password.
    enum PasswordFileProblem: Error, Equatable, CustomStringConvertible {
        case empty, nul, notUTF8, tooLong

        var description: String {
            switch self {
            case .empty: "has no password on its first line"
            case .nul: "has a NUL byte on its first line"
            case .notUTF8: "has a first line that is not UTF-8 text"
            case .tooLong: "has a first line longer than MQTT's \(maximumPasswordBytes) bytes"
            }
        }
    }

    /// The first line of `bytes` (a file's start) without its LF or CR LF: the password.
    static func firstLine(_ bytes: [UInt8]) -> Result<String, PasswordFileProblem> {
        var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard !line.isEmpty else { return .failure(.empty) }
        guard line.count <= maximumPasswordBytes else { return .failure(.tooLong) }
        // libmosquitto takes the password as a C string: a NUL would cut it short.
        guard !line.contains(0) else { return .failure(.nul) }
        guard let text = String(validating: line, as: UTF8.self) else { return .failure(.notUTF8) }
        return .success(text)
    }

    /// The warning for a password given in the URL, where ps(1) and /proc/PID/cmdline show it.
    var warning: String? {
        guard passwordInURL else { return nil }
        return "Warning: the '--mqtt' URL's password shows in ps(1) to every user of this machine; "
            + "put it in a file for '--mqtt-password-file' or in \(Self.passwordVariable) instead"
    }
}
