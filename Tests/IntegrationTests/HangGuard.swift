/// Limits that only stop a hung test. None of them claims anything about how fast beacon or the
/// emulated controllers are: every one is many times what the awaited step needs on an idle machine,
/// so a busy one (the whole test run, other builds, a CPU hog) cannot trip it. What a test proves
/// comes from ordering and from times beacon and the controllers printed, never from these.
enum HangGuard {
    /// A Python helper starting (bumble's import alone is about a second of CPU) until its first line.
    static let startUp: Duration = .seconds(60)
    /// One step a running process takes next: a line it prints, its exit after a signal, a capture read.
    static let step: Duration = .seconds(30)
    /// Kill limit for a helper process, which may live through a whole test (a broker, a building's
    /// gateways): as long as the longest test's time limit, so a wait or that limit reports a hang first
    /// and this only stops a process a cancelled test left behind.
    static let processLimit: Duration = .seconds(600)
}
