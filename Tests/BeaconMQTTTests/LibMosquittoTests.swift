@testable import BeaconMQTT
import Testing

@Suite("libmosquitto, opened when --mqtt is given")
struct LibMosquittoTests {
    @Test("the installed library opens with every function beacon calls")
    func opens() throws {
        let library = try LibMosquitto.open(LibMosquitto.soname).get()
        #expect(library.strerror(0).map { String(cString: $0) } == "No error.")
    }

    @Test("a library that is not there is an error naming the package and dlopen's reason")
    func missing() {
        guard case .failure(let error) = LibMosquitto.open("libmosquitto-absent.so.1") else {
            Issue.record("opened a library that does not exist")
            return
        }
        #expect(error.description.hasPrefix("--mqtt needs libmosquitto (Debian package libmosquitto1): "))
        #expect(error.description.contains("libmosquitto-absent.so.1"), "\(error)")
    }
}
