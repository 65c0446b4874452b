import Foundation

/// A running process's own account of itself, from /proc/PID/status.
enum ProcessStatus {
    /// A field counted in kB, such as VmRSS (resident now) or VmHWM (the most it has been resident);
    /// nil once the process has exited.
    static func kilobytes(_ field: String, of pid: Int32) -> Int? {
        let status: String
        do {
            status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        } catch {
            return nil
        }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
