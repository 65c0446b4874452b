import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A mosquitto broker (Debian's `mosquitto`) on a free loopback port, for one test, with
/// persistence in the test's scratch directory so a restart keeps sessions and retained messages, and
/// by default no limit on the QoS 1 messages queued for a client: mosquitto's own (1000) drops messages
/// for a checking subscriber that falls behind a replay.
final class MosquittoBroker: @unchecked Sendable {
    // @unchecked: `process` is replaced only by restart(), which the one test that owns the broker calls.
    static let executable = "/usr/sbin/mosquitto"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: Int
    private let directory: URL
    private var process: ChildProcess

    /// With `users` (name: password), only they may connect: mosquitto_passwd writes its password file.
    /// `queuedMessages`: the QoS 1 messages held for a client beyond those in flight (0: no limit).
    init(directory: URL, users: [String: String] = [:], queuedMessages: Int = 0) async throws {
        self.directory = directory
        port = try Self.freeLoopbackPort()
        var access = "allow_anonymous true"
        if !users.isEmpty {
            let passwords = directory.appendingPathComponent("passwords").path
            try Data().write(to: URL(fileURLWithPath: passwords))
            for (user, password) in users {
                let tool = try ChildProcess(name: "mosquitto_passwd", executable: "/usr/bin/mosquitto_passwd",
                                            arguments: ["-b", passwords, user, password], limit: HangGuard.processLimit)
                guard try await tool.waitForExit(within: HangGuard.step) == .exited(0) else {
                    throw tool.failure("mosquitto_passwd failed")
                }
            }
            access = "allow_anonymous false\npassword_file \(passwords)"
        }
        let config = """
            listener \(port) 127.0.0.1
            \(Self.userLine)
            \(access)
            max_queued_messages \(queuedMessages)
            persistence true
            persistence_location \(directory.path)/
            log_dest stderr
            log_type error
            log_type warning
            log_type notice

            """
        try config.write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        process = try await Self.start(directory: directory, port: port)
    }

    /// Runs `body` with a broker and a scratch directory, stopping and removing both afterwards.
    static func with(users: [String: String] = [:], queuedMessages: Int = 0,
                     _ body: (MosquittoBroker, URL) async throws -> Void) async throws {
        let scratch = try ProjectPaths.makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let broker = try await MosquittoBroker(directory: scratch, users: users, queuedMessages: queuedMessages)
        do {
            try await body(broker, scratch)
            await broker.stop()
        } catch {
            await broker.stop()
            throw error
        }
    }

    /// `mqtt://127.0.0.1:PORT/PREFIX`
    func url(prefix: String) -> String { "mqtt://127.0.0.1:\(port)/\(prefix)" }

    /// Stops the broker (SIGTERM: it saves its sessions) and starts it again on the same port.
    func restart() async throws {
        try await stopAndWait()
        process = try await Self.start(directory: directory, port: port)
    }

    /// Stops the broker (SIGTERM: it saves its sessions) and waits for it to exit; throws if the save failed.
    func stopAndWait() async throws {
        process.send(SIGTERM)
        try await process.waitForExit(within: HangGuard.step)
        if process.stderrLines.contains(where: { $0.contains("Error saving") }) {
            throw process.failure("sessions not saved: a restart would lose them")
        }
    }

    /// Run as root, mosquitto becomes the `mosquitto` user, which cannot write the scratch directory:
    /// every save of its sessions would fail. Told to be the user the tests run as, it stays root (a
    /// non-root broker ignores the setting).
    private static var userLine: String {
        guard let entry = getpwuid(geteuid()) else { return "" }
        return "user " + String(cString: entry.pointee.pw_name)
    }

    func stop() async {
        resume()
        await process.stop()
    }

    /// Stops the broker process (SIGSTOP): connections stay open, and nothing is accepted or acknowledged.
    func pause() { process.send(SIGSTOP) }

    func resume() { process.send(SIGCONT) }

    private static func start(directory: URL, port: Int) async throws -> ChildProcess {
        let broker = try ChildProcess(name: "mosquitto", executable: executable,
                                      arguments: ["-c", directory.appendingPathComponent("mosquitto.conf").path],
                                      limit: HangGuard.processLimit)
        // Ready once a client can connect.
        let deadline = ContinuousClock.now + .seconds(10)
        while !canConnect(port: port) {
            if ContinuousClock.now >= deadline || !broker.isRunning {
                await broker.stop()
                throw broker.failure("no listener on port \(port)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return broker
    }

    /// A port the kernel just handed out on 127.0.0.1, free again for the broker to take.
    static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcessError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                bind(fd, sockaddr, length) == 0 && getsockname(fd, sockaddr, &length) == 0
            }
        }
        guard bound else { throw ChildProcessError(description: "bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// `mosquitto_sub` (Debian's `mosquitto-clients`) printing each message as `RETAIN TOPIC PAYLOAD`.
enum MQTTSubscriber {
    static let executable = "/usr/bin/mosquitto_sub"

    /// Subscribes to `topics`. `session` makes it a persistent QoS 1 session with that client id,
    /// which a restarted broker keeps (with the messages that arrived meanwhile). `login` is a user and password.
    static func start(port: Int, topics: [String], session: String? = nil, login: (String, String)? = nil) async throws -> ChildProcess {
        var arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-F", "%r %t %p", "-d"]
        if let session { arguments += ["-c", "-i", session] }
        if let (user, password) = login { arguments += ["-u", user, "-P", password] }
        for topic in topics { arguments += ["-t", topic] }
        // Line-buffered: mosquitto_sub flushes its stdout only after a message, and SUBACK comes before any.
        let subscriber = try ChildProcess(name: "mosquitto_sub", executable: "/usr/bin/stdbuf",
                                          arguments: ["-oL", executable] + arguments, limit: HangGuard.processLimit)
        try await subscriber.waitForLine(within: HangGuard.step, "SUBACK") { $0.contains("SUBACK") }
        return subscriber
    }

    /// Waits until `topic` holds `payload` (retained or published meanwhile): a process that publishes its
    /// online status once subscribed is then ready, since a message it would miss is of no use.
    static func waitFor(port: Int, topic: String, payload: String) async throws {
        let subscriber = try await start(port: port, topics: [topic])
        do {
            try await subscriber.waitUntil("\(payload) on \(topic)") {
                messages(subscriber).contains { $0.topic == topic && $0.payload == payload }
            }
        } catch {
            await subscriber.stop()
            throw error
        }
        await subscriber.stop()
    }

    /// The messages received so far, without the debug lines.
    static func messages(_ subscriber: ChildProcess) -> [(retained: Bool, topic: String, payload: String)] {
        subscriber.stdoutLines.compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0] == "0" || fields[0] == "1" else { return nil }
            return (fields[0] == "1", String(fields[1]), String(fields[2]))
        }
    }
}
