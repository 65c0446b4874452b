import Dispatch

/// Runs independent evaluation jobs on every core. Each job is a pure function of its input, so the
/// results, kept in input order, are the same whatever the scheduling.
enum Parallel {
    static func map<Input: Sendable, Output: Sendable>(_ inputs: [Input], _ transform: @Sendable (Input) -> Output) -> [Output] {
        var outputs = [Output?](repeating: nil, count: inputs.count)
        outputs.withUnsafeMutableBufferPointer { buffer in
            let slots = Slots(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: inputs.count) { i in slots.buffer[i] = transform(inputs[i]) }
        }
        return outputs.map { output in
            guard let output else { preconditionFailure("a parallel job left no result") }
            return output
        }
    }

    /// The result slots, shared by the jobs: each writes only its own index, and all are done before the
    /// buffer is read.
    private struct Slots<Output>: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Output?>
    }
}
