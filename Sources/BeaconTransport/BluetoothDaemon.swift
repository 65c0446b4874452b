import BeaconCore
import Glibc

/// Whether bluetoothd holds a controller: a process named bluetoothd runs (from /proc) and the controller
/// is up. Then advertising set up on the raw channel behind the kernel's back would be lost or reshaped.
public enum BluetoothDaemon {
    /// Why bluetoothd is taken to hold controller `index`, for the stderr line; nil when it does not.
    public static func holdReason(controller index: UInt16) -> String? {
        guard isRunning(), let listing = KernelControllers.listForMessage()?.first(where: { $0.index == index }),
              listing.isUp else { return nil }
        return "bluetoothd runs and hci\(index) is up"
    }

    /// A process whose name (/proc/PID/comm) is bluetoothd.
    static func isRunning() -> Bool {
        guard let directory = opendir("/proc") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.isEmpty, name.allSatisfy(\.isNumber) else { continue }
            if processName("/proc/\(name)/comm") == "bluetoothd" { return true }
        }
        return false
    }

    private static func processName(_ path: String) -> String? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { closeDescriptor(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes.prefix(count).prefix { $0 != 0x0A }, as: UTF8.self)
    }
}
