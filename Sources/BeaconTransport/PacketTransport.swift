import BeaconCore

/// A source and sink of HCI packets: a live controller or a capture being replayed.
public protocol PacketTransport: AnyObject {
    /// Descriptor that becomes readable when `receive` has something; nil when reads never block (capture replay).
    var readDescriptor: Int32? { get }
    /// True for a live controller; false for capture replay (sends are dropped, times come from the capture).
    var isLive: Bool { get }
    /// False for the shared kernel raw channel, where other users of the controller must not be disturbed (no Reset).
    var ownsController: Bool { get }
    /// True for a listener that sends nothing (monitor:N): commands that must send refuse it.
    var isReadOnly: Bool { get }
    /// A one-line human description, e.g. "tcp:127.0.0.1:9001".
    var description: String { get }
    /// The next packet of what was read so far, nil when `read()` must run first. Its bytes are in place
    /// in the transport's buffer, valid until the next `read()`.
    func nextPacket() throws(TransportError) -> TransportPacket?
    /// Hands the packets of what was read so far to `body` in order, until it returns false (after
    /// taking that one) or none is left: a whole read's packets in one call.
    func forEachPacket(_ body: (TransportPacket) -> Bool) throws(TransportError)
    /// Performs one read into the transport's buffer (blocking only when nothing is readable); false
    /// at end of stream (peer closed, end of capture).
    func read() throws(TransportError) -> Bool
    func send(_ packet: HCIPacket) throws(TransportError)
    func close()
}

extension PacketTransport {
    public var isReadOnly: Bool { false }

    public func forEachPacket(_ body: (TransportPacket) -> Bool) throws(TransportError) {
        while let packet = try nextPacket(), body(packet) {}
    }
}

/// Opens the transport a spec names. `btsnoopIndex` picks the controller of a Linux monitor capture
/// (nil: the first one that carries packets); `warn` takes a listener's warnings (mgmt:N's skipped events);
/// `recording` has mgmt:N read the controller's traffic for `--record` as well.
public func openTransport(_ spec: TransportSpec, btsnoopIndex: UInt16? = nil, recording: Bool = false,
                          warn: @escaping (String) -> Void = { _ in }) throws(TransportError) -> PacketTransport {
    switch spec {
    case .kernelRaw(let index):
        return try KernelHCITransport(controller: index, channel: .raw)
    case .kernelUser(let index):
        return try KernelHCITransport(controller: index, channel: .user)
    case .kernelMonitor(let index):
        return try KernelMonitorTransport(controller: index)
    case .kernelManagement(let index):
        return try ManagementScanTransport(controller: index, recording: recording, warn: warn)
    case .tcp(let host, let port):
        return try StreamTransport.connectTCP(host: host, port: port)
    case .unix(let path):
        return try StreamTransport.connectUnix(path: path)
    case .serial(let device, let baud, let rtscts):
        return try SerialTransport(device: device, baud: baud, rtscts: rtscts)
    case .btsnoop(let path):
        return try BtsnoopReplayTransport(path: path, indexFilter: btsnoopIndex)
    }
}
