import Testing
import BeaconCore

@Suite("Controller listing")
struct ControllerListingTests {
    static let hci0 = ControllerListing(index: 0, name: "hci0", address: DeviceAddress(value: 0xF0F1_F2F3_F401),
                                        isUp: true, bus: 3, deviceType: 0)
    static let root = ProcessCapabilities(netAdmin: true, netRaw: true)
    static let none = ProcessCapabilities(netAdmin: false, netRaw: false)

    @Test func busAndTypeNamesFollowTheKernel() {
        let buses = (0...12).map { ControllerListing(index: 0, name: "hci0", address: DeviceAddress(value: 0), isUp: false,
                                                     bus: UInt8($0), deviceType: 0).busName }
        #expect(buses == ["VIRTUAL", "USB", "PCCARD", "UART", "RS232", "PCI", "SDIO", "SPI", "I2C", "SMD", "VIRTIO", "IPC", "unknown(12)"])
        let types = (0...2).map { ControllerListing(index: 0, name: "hci0", address: DeviceAddress(value: 0), isUp: false,
                                                    bus: 0, deviceType: UInt8($0)).typeName }
        #expect(types == ["primary", "amp", "unknown(2)"])
    }

    /// raw: CAP_NET_RAW and (up, or CAP_NET_ADMIN to bring it up); user: CAP_NET_ADMIN and down.
    @Test(arguments: [
        (true, true, true, true, false),
        (false, true, true, true, true),
        (true, false, true, true, false),    // up, raw only: usable as it is
        (false, false, true, false, false),  // down, raw only: cannot bring it up
        (true, true, false, false, false),   // admin without raw: cannot send on the raw channel
        (false, true, false, false, true),
        (true, false, false, false, false),
        (false, false, false, false, false),
    ])
    func channelsUsable(up: Bool, admin: Bool, raw: Bool, rawUsable: Bool, userUsable: Bool) {
        var controller = Self.hci0
        controller.isUp = up
        let channels = controller.channels(ProcessCapabilities(netAdmin: admin, netRaw: raw))
        #expect(channels.raw == rawUsable)
        #expect(channels.user == userUsable)
    }

    @Test func capabilitiesFromProcStatus() throws {
        let rootStatus = "Name:\tbeacon\nUid:\t0\t0\t0\t0\nCapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffffff\n"
        #expect(ProcessCapabilities.parse(procStatus: rootStatus) == Self.root)
        // setcap cap_net_raw,cap_net_admin+eip: bits 12 and 13
        let setcap = "CapEff:\t0000000000003000\n"
        #expect(ProcessCapabilities.parse(procStatus: setcap) == Self.root)
        #expect(ProcessCapabilities.parse(procStatus: "CapEff:\t0000000000002000\n") == ProcessCapabilities(netAdmin: false, netRaw: true))
        #expect(ProcessCapabilities.parse(procStatus: "CapEff:\t0000000000001000\n") == ProcessCapabilities(netAdmin: true, netRaw: false))
        #expect(ProcessCapabilities.parse(procStatus: "CapEff:\t0000000000000000\n") == Self.none)
        #expect(ProcessCapabilities.parse(procStatus: "Name:\tbeacon\n") == nil)
        #expect(ProcessCapabilities.parse(procStatus: "CapEff:\tzz\n") == nil)
    }

    @Test func presentNamesAreInIndexOrder() {
        var hci1 = Self.hci0
        hci1.index = 1
        hci1.name = "hci1"
        #expect(ControllerListing.names([hci1, Self.hci0]) == "hci0, hci1")
        #expect(ControllerListing.names([Self.hci0]) == "hci0")
        #expect(ControllerListing.names([]) == "none")
    }

    @Test func deviceLine() {
        let time = Timestamp(microseconds: 1_795_953_600_000_000)  // 2026-11-29T12:00:00Z
        #expect(OutputLine.encode(Self.hci0, capabilities: Self.root, time: time) ==
            #"{"event":"device","time":"2026-11-29T12:00:00.000Z","name":"hci0","index":0,"address":"F0:F1:F2:F3:F4:01","up":true,"bus":"UART","type":"primary","channels":{"raw":true,"user":false,"mgmt":true,"monitor":true}}"#)
        var down = Self.hci0
        down.isUp = false
        down.bus = 1
        #expect(OutputLine.encode(down, capabilities: Self.none, time: time) ==
            #"{"event":"device","time":"2026-11-29T12:00:00.000Z","name":"hci0","index":0,"address":"F0:F1:F2:F3:F4:01","up":false,"bus":"USB","type":"primary","channels":{"raw":false,"user":false,"mgmt":false,"monitor":false}}"#)
    }
}
