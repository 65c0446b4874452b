import Foundation
import Synchronization

/// Bounds how many scenarios with emulated controllers (a bumble rig, a fault-injecting controller,
/// the legacy advertiser check) run at the same time.
///
/// Swift Testing starts every test case at once. Unbounded, that is some eighty Python processes
/// (bumble's import alone costs about a second of CPU) and as many beacons starting together on a
/// 2-core machine: the emulated controllers then answer so late that beacon's own 3 s command timeout
/// fires against a controller that did nothing wrong, and start-up guards trip. A scenario holds a
/// slot from its controllers' start to their stop, so each one runs on a machine that is busy but
/// not swamped by the test run itself.
final class EmulatorSlots: Sendable {
    /// Two scenarios per core: most of a scenario's time is spent waiting (timeouts, durations,
    /// advertising intervals), so this keeps the cores busy without starving the controllers.
    static let shared = EmulatorSlots(capacity: max(2, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private struct State {
        var free: Int
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(capacity: Int) {
        state = Mutex(State(free: capacity))
    }

    /// Runs `body` holding one slot; waits (cancellably) for a free one first.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    private func acquire() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = state.withLock { state -> Bool in
                    if Task.isCancelled { return false }
                    if state.free > 0 {
                        state.free -= 1
                        return true
                    }
                    state.waiting.append((id, continuation))
                    return false
                }
                if granted {
                    continuation.resume()
                } else if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
