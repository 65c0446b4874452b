extension BinaryInteger {
    /// The number and its noun, singular for exactly one: `1.counted("line")` is "1 line", `2.counted("line")`
    /// "2 lines"; `plural` for a noun that does not take an s.
    public func counted(_ singular: String, plural: String? = nil) -> String {
        self == 1 ? "1 \(singular)" : "\(self) \(plural ?? singular + "s")"
    }
}
