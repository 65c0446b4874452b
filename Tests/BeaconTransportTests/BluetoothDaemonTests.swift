import Foundation
import Glibc
import Testing
@testable import BeaconTransport

@Suite struct BluetoothDaemonTests {
    @Test("bluetoothd is found by its process name in /proc while it runs, and not once it has gone",
          .enabled(if: !BluetoothDaemon.isRunning(), "this machine runs bluetoothd"))
    func foundByProcessName() throws {
        // A copy of sleep named bluetoothd: /proc/PID/comm is the executable's name.
        let directory = temporaryPath("daemon")
        try syscall("mkdir") { mkdir(directory, 0o700) }
        let executable = "\(directory)/bluetoothd"
        defer {
            unlink(executable)
            rmdir(directory)
        }
        try writeFile(executable, InputFile.read("/bin/sleep"))
        try syscall("chmod") { chmod(executable, 0o700) }
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: executable)
        daemon.arguments = ["30"]
        try daemon.run()
        #expect(BluetoothDaemon.isRunning())
        // SIGKILL: a signal watcher elsewhere in the process may have left SIGTERM blocked for the child.
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        #expect(!BluetoothDaemon.isRunning())
    }
}
