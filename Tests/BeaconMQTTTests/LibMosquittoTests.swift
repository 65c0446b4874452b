@testable import BeaconMQTT
import Testing

@Suite("libmosquitto, opened when --mqtt is given")
struct LibMosquittoTests {
    @Test("the installed library opens with every function beacon calls")
    func opens() throws {
        let library = try LibMosquitto.open(LibMosquitto.soname).get()
        #expect(library.strerror(0).map { String(cString: $0) } == "No error.")
    }

    @Test("libmosquitto's messages lose their full stop, so a line of clauses reads 'A TLS error occurred; ...', not 'occurred.;'")
    func messagesAreClauses() throws {
        let library = try LibMosquitto.open(LibMosquitto.soname).get()
        // 8 is MOSQ_ERR_TLS.
        #expect(library.errorText(8) == "A TLS error occurred")
        #expect(library.refusalText(5) == "Connection Refused: not authorised")
        #expect(LibMosquitto.clause("No error.") == "No error" && LibMosquitto.clause("refused") == "refused")
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
