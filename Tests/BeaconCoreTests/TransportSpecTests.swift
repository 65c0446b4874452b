import Testing
import BeaconCore

@Suite struct TransportSpecTests {
    @Test(arguments: [
        ("hci0", TransportSpec.kernelRaw(0), "hci0"),
        ("0", .kernelRaw(0), "hci0"),
        ("hci12", .kernelRaw(12), "hci12"),
        ("3", .kernelRaw(3), "hci3"),
        ("hci-user:1", .kernelUser(1), "hci-user:1"),
        ("hci-user:hci2", .kernelUser(2), "hci-user:2"),
        ("mgmt:0", .kernelManagement(0), "mgmt:0"),
        ("mgmt:hci3", .kernelManagement(3), "mgmt:3"),
        ("monitor:1", .kernelMonitor(1), "monitor:1"),
        ("monitor:hci65534", .kernelMonitor(65534), "monitor:65534"),
        ("tcp:127.0.0.1:9001", .tcp(host: "127.0.0.1", port: 9001), "tcp:127.0.0.1:9001"),
        ("tcp:localhost:1", .tcp(host: "localhost", port: 1), "tcp:localhost:1"),
        ("tcp:[::1]:65535", .tcp(host: "::1", port: 65535), "tcp:[::1]:65535"),
        ("tcp:[fe80::1%eth0]:9000", .tcp(host: "fe80::1%eth0", port: 9000), "tcp:[fe80::1%eth0]:9000"),
        ("unix:/run/hci.sock", .unix(path: "/run/hci.sock"), "unix:/run/hci.sock"),
        ("unix:rel:with:colons", .unix(path: "rel:with:colons"), "unix:rel:with:colons"),
        ("serial:/dev/ttyUSB0", .serial(device: "/dev/ttyUSB0", baud: 115200, rtscts: false), "serial:/dev/ttyUSB0,115200"),
        ("serial:/dev/ttyACM0,1000000", .serial(device: "/dev/ttyACM0", baud: 1000000, rtscts: false), "serial:/dev/ttyACM0,1000000"),
        ("serial:/dev/ttyS1,rtscts", .serial(device: "/dev/ttyS1", baud: 115200, rtscts: true), "serial:/dev/ttyS1,115200,rtscts"),
        ("serial:/dev/ttyS1,3000000,rtscts", .serial(device: "/dev/ttyS1", baud: 3000000, rtscts: true), "serial:/dev/ttyS1,3000000,rtscts"),
        ("btsnoop:capture.log", .btsnoop(path: "capture.log"), "btsnoop:capture.log"),
        ("btsnoop:/tmp/a b.btsnoop", .btsnoop(path: "/tmp/a b.btsnoop"), "btsnoop:/tmp/a b.btsnoop"),
    ])
    func parsesEveryForm(text: String, expected: TransportSpec, canonical: String) throws {
        let spec = try TransportSpec.parse(text)
        #expect(spec == expected)
        #expect(spec.description == canonical)
        #expect(try TransportSpec.parse(canonical) == spec)
    }

    @Test(arguments: [
        ("", TransportSpecError.Problem.empty),
        ("bluetooth", .unknownForm),
        ("ftp:host:21", .unknownForm),
        ("hci", .badControllerIndex("")),
        ("hcix", .badControllerIndex("x")),
        ("65535", .badControllerIndex("65535")),
        ("hci99999", .badControllerIndex("99999")),
        ("hci-user:", .badControllerIndex("")),
        ("mgmt:", .badControllerIndex("")),
        ("mgmt:65535", .badControllerIndex("65535")),
        ("monitor:x", .badControllerIndex("x")),
        ("monitor", .unknownForm),
        ("hci-user:-1", .badControllerIndex("-1")),
        ("tcp:localhost", .missingPort),
        ("tcp::9001", .badHost),
        ("tcp:host:", .badPort("")),
        ("tcp:host:0", .badPort("0")),
        ("tcp:host:65536", .badPort("65536")),
        ("tcp:host:http", .badPort("http")),
        ("tcp:::1:9001", .unbracketedIPv6),
        ("tcp:[::1]", .missingPort),
        ("tcp:[::1:9001", .badHost),
        ("tcp:[]:9001", .badHost),
        ("unix:", .missingPath),
        ("btsnoop:", .missingPath),
        ("serial:", .missingPath),
        ("serial:,115200", .missingPath),
        ("serial:/dev/ttyS0,115201", .badBaud("115201")),
        ("serial:/dev/ttyS0,9600,9600", .badSerialOption("9600")),
        ("serial:/dev/ttyS0,rtscts,115200", .badSerialOption("115200")),
        ("serial:/dev/ttyS0,crtscts", .badSerialOption("crtscts")),
        ("serial:/dev/ttyS0,", .badSerialOption("")),
    ])
    func rejects(text: String, problem: TransportSpecError.Problem) {
        #expect(throws: TransportSpecError(text: text, problem: problem)) { try TransportSpec.parse(text) }
    }

    @Test func errorListsTheValidForms() {
        let error = TransportSpecError(text: "bluetooth", problem: .unknownForm)
        let text = error.description
        #expect(text.hasPrefix("unknown transport 'bluetooth'; valid forms: "))
        for form in ["hciN", "hci-user:N", "tcp:HOST:PORT", "unix:PATH", "serial:DEVICE[,BAUD][,rtscts]", "btsnoop:FILE"] {
            #expect(text.contains(form))
        }
    }
}
