@testable import BeaconCore
import BeaconTransport
import Testing

@Suite struct SystemRandomKeyTests {
    @Test("two monitors hash the same key differently: each draws its own key from the system")
    func keysAreDrawnPerMonitor() {
        let (a, b) = (MultilinearHash.systemRandomKey(), MultilinearHash.systemRandomKey())
        #expect(a.key.0 != b.key.0 || a.key.1 != b.key.1 || a.key.8 != b.key.8)
    }
}
