/// Help text fitted to a terminal's width, as the Swift argument parser fits it: words move to the next
/// line, which is indented to where the text it continues began.
enum TextWrapping {
    /// `line` in lines of at most `width` characters where its words allow (a word longer than a line
    /// stands alone), each after the first indented by `indent` spaces.
    static func wrap(_ line: String, width: Int, indent: Int) -> [String] {
        guard line.count > width else { return [line] }
        let leading = line.prefix { $0 == " " }
        let words = line.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false)
        let continuation = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = String(leading)
        var currentHasWord = false
        for word in words {
            if currentHasWord, current.count + 1 + word.count > width {
                lines.append(current)
                current = continuation + word
            } else {
                current += (currentHasWord ? " " : "") + word
            }
            currentHasWord = true
        }
        lines.append(current)
        return lines
    }

    /// Every line of `text` wrapped, continuing at its own indentation.
    static func wrapLines(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            wrap(String(line), width: width, indent: line.prefix { $0 == " " }.count)
        }.joined(separator: "\n")
    }

    /// The width help is fitted to: the terminal's when standard output is one (`COLUMNS` when set to a
    /// number, else the window's size), 80 columns otherwise, as for a file or a pipe.
    static func helpWidth(isTerminal: Bool, columnsVariable: String?, windowColumns: Int?) -> Int {
        guard isTerminal else { return defaultWidth }
        if let text = columnsVariable, let columns = Int(text), columns > 0 { return max(columns, minimumWidth) }
        return windowColumns.map { max($0, minimumWidth) } ?? defaultWidth
    }

    static let defaultWidth = 80
    /// Narrower than this, the help column itself would not fit: wrap as if this wide.
    static let minimumWidth = 40
}
