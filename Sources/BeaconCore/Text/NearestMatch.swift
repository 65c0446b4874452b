/// The valid word a mistyped one was most likely meant to be, for "Did you mean …?" in usage errors.
public enum NearestMatch {
    /// The one candidate `typed` begins (an abbreviation), else the closest within a couple of typos;
    /// nil when nothing is close enough to be a useful guess.
    public static func suggestion(for typed: String, among candidates: [String]) -> String? {
        let abbreviated = candidates.filter { typed.count >= 2 && $0.hasPrefix(typed) }
        if abbreviated.count == 1 { return abbreviated[0] }
        let typedCharacters = Array(typed)
        // Short words are easy to hit by accident: one typo at most below five characters.
        let limit = typedCharacters.count < 5 ? 1 : 2
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typedCharacters, Array(candidate))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// Insertions, deletions, substitutions and swaps of neighbours (optimal string alignment distance).
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// Why a JSON object's member `name` is refused: the members valid there, each once, and the one
    /// likely meant (`unknown member (expected 'kind', 'distance'); did you mean 'distance'?`).
    public static func unknownMember(_ name: String, among members: [String]) -> String {
        var valid: [String] = []
        for member in members where !valid.contains(member) { valid.append(member) }
        let hint = suggestion(for: name, among: valid).map { "; did you mean '\($0)'?" } ?? ""
        return "unknown member (expected \(valid.map { "'\($0)'" }.joined(separator: ", ")))\(hint)"
    }

    /// `message` with ". Did you mean 'x'?" when there is a likely candidate.
    public static func message(_ message: String, typed: String, among candidates: [String]) -> String {
        guard let match = suggestion(for: typed, among: candidates) else { return message }
        return "\(message). Did you mean '\(match)'?"
    }
}
