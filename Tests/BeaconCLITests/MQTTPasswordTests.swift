@testable import BeaconCLI
import BeaconCore
import Foundation
import Testing

@Suite("MQTT password: --mqtt-password-file, BEACON_MQTT_PASSWORD and the URL")
struct MQTTPasswordTests {
    /// The broker options `arguments` and `environment` give.
    func broker(_ arguments: [String], environment: [String: String] = [:]) throws -> BrokerOptions? {
        let parsed = try ParsedOptions.parse(arguments, specs: RangeOptions.help.options)
        return try BrokerOptions.parse(parsed, environment: environment)
    }

    @Test("a password file's first line is the password, without its LF or CR LF", arguments: [
        ("secret\n", "secret"), ("secret", "secret"), ("secret\r\nsecond line\n", "secret"),
        ("  spaces kept \n", "  spaces kept "), ("pässwort\n", "pässwort"),
    ])
    func firstLine(contents: String, password: String) {
        #expect(BrokerOptions.firstLine(Array(contents.utf8)) == .success(password))
    }

    @Test("a password file with no usable first line says why")
    func unusableFirstLine() {
        #expect(BrokerOptions.firstLine([]) == .failure(.empty))
        #expect(BrokerOptions.firstLine(Array("\nsecret\n".utf8)) == .failure(.empty))
        #expect(BrokerOptions.firstLine(Array("\r\n".utf8)) == .failure(.empty))
        #expect(BrokerOptions.firstLine([0x61, 0x00, 0x62, 0x0A]) == .failure(.nul))
        #expect(BrokerOptions.firstLine([0x61, 0xFF, 0x0A]) == .failure(.notUTF8))
        #expect(BrokerOptions.firstLine([UInt8](repeating: 0x61, count: 65_536)) == .failure(.tooLong))
        #expect(BrokerOptions.firstLine([UInt8](repeating: 0x61, count: 65_535)) != .failure(.tooLong))
    }

    @Test("precedence: --mqtt-password-file, then BEACON_MQTT_PASSWORD, then the URL's password")
    func precedence() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("password")
        try "from-file\n".write(toFile: file, atomically: true, encoding: .utf8)
        let environment = ["BEACON_MQTT_PASSWORD": "from-env"]

        let all = try #require(try broker(["--mqtt", "mqtt://gw:from-url@h", "--mqtt-password-file", file], environment: environment))
        #expect(all.address.password == "from-file")
        #expect(all.address.username == "gw")
        #expect(all.passwordSource == .file(file))
        let noFile = try #require(try broker(["--mqtt", "mqtt://gw:from-url@h"], environment: environment))
        #expect(noFile.address.password == "from-env")
        #expect(noFile.passwordSource == .environment)
        let urlOnly = try #require(try broker(["--mqtt", "mqtt://gw:from-url@h"], environment: ["BEACON_MQTT_PASSWORD": ""]))
        #expect(urlOnly.address.password == "from-url")
        #expect(urlOnly.passwordSource == .url)
        let none = try #require(try broker(["--mqtt", "mqtt://gw@h"]))
        #expect(none.address.password == nil)
        #expect(none.passwordSource == nil)
    }

    @Test("a password in the URL is warned of, as ps shows it, even when another source wins")
    func urlPasswordWarning() throws {
        let warned = try #require(try broker(["--mqtt", "mqtt://gw:from-url@h"], environment: ["BEACON_MQTT_PASSWORD": "x"]))
        #expect(warned.warning == "Warning: the '--mqtt' URL's password shows in ps(1) to every user of this machine; "
                + "put it in a file for '--mqtt-password-file' or in BEACON_MQTT_PASSWORD instead")
        #expect(try broker(["--mqtt", "mqtt://gw@h"], environment: ["BEACON_MQTT_PASSWORD": "x"])?.warning == nil)
    }

    @Test("a missing, unreadable or empty password file, or a password without a user, is a usage error")
    func passwordErrors() throws {
        let directory = try TemporaryDirectory()
        let empty = directory.path("empty")
        try "\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let password = directory.path("password")
        try "secret\n".write(toFile: password, atomically: true, encoding: .utf8)
        let cases: [([String], [String: String], String)] = [
            (["--mqtt", "mqtt://gw@h", "--mqtt-password-file", "/nonexistent/pw"], [:],
             "Error: Cannot read '--mqtt-password-file <file>' /nonexistent/pw: No such file or directory"),
            (["--mqtt", "mqtt://gw@h", "--mqtt-password-file", directory.url.path], [:],
             "Error: Cannot read '--mqtt-password-file <file>' \(directory.url.path): Is a directory"),
            (["--mqtt", "mqtt://gw@h", "--mqtt-password-file", empty], [:],
             "Error: '--mqtt-password-file <file>' \(empty) has no password on its first line"),
            (["--mqtt", "mqtt://h", "--mqtt-password-file", password], [:],
             "Error: A password (from '--mqtt-password-file' \(password)) needs a user name in the '--mqtt' URL: mqtt://USER@HOST[:PORT][/PREFIX]"),
            (["--mqtt", "mqtt://h"], ["BEACON_MQTT_PASSWORD": "secret"],
             "Error: A password (from BEACON_MQTT_PASSWORD) needs a user name in the '--mqtt' URL: mqtt://USER@HOST[:PORT][/PREFIX]"),
            (["--mqtt-password-file", password], [:], "Error: '--mqtt-password-file' needs '--mqtt'"),
        ]
        for (arguments, environment, error) in cases {
            for command in [["range", "--uuid", appleUUID], ["locate", "--site", "site.json"]] {
                let io = CapturedConsole()
                #expect(io.run(command + arguments, environment: environment) == 64, "\(command) \(arguments)")
                #expect(io.stderr.first == error, "\(command) \(arguments)")
            }
        }
    }
}
