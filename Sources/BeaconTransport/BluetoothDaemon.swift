import BeaconCore

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
        guard let names = try? Directory.names(in: "/proc", suffix: "") else { return false }
        return names.contains { name in
            !name.isEmpty && name.allSatisfy(\.isNumber) && processName("/proc/\(name)/comm") == "bluetoothd"
        }
    }

    /// The first line of `path`; nil when the process is gone or the file cannot be read.
    private static func processName(_ path: String) -> String? {
        guard let bytes = try? InputFile.read(path, atMost: 32), !bytes.isEmpty else { return nil }
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }
}
