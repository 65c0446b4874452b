import Foundation

/// An output line type the tests decode from beacon's stdout.
protocol JSONLine: Decodable {}

extension JSONLine {
    /// Decodes every line; throws naming the first line that does not decode.
    static func decode(_ lines: [String]) throws -> [Self] {
        let decoder = JSONDecoder()
        return try lines.enumerated().map { number, line in
            do {
                return try decoder.decode(Self.self, from: Data(line.utf8))
            } catch {
                throw ChildProcessError(description: "stdout line \(number + 1) is not a \(Self.self): \(line)\n\(error)")
            }
        }
    }
}
