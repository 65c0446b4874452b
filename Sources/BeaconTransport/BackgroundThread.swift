import Glibc

/// A thread of its own, for work that must not wait on a command's loop nor hold it up (a broker
/// connection). It inherits the starting thread's signal mask, so SIGINT and SIGTERM still reach
/// only the signal descriptor.
public final class BackgroundThread: @unchecked Sendable {
    // @unchecked: `thread` is written once in init and read once by join, from the starting thread.
    private var thread = pthread_t()

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    public init(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError(call: "pthread_create", errno: result)
        }
    }

    /// Waits for the body to return.
    public func join() {
        pthread_join(thread, nil)
    }
}
