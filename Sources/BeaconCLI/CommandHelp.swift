/// A subcommand's description, rendered as help in the Swift argument-parser layout users know.
struct CommandHelp {
    let name: String
    let overview: String
    let usage: String
    let options: [OptionSpec]
    /// Extra paragraphs after OPTIONS (formats, examples).
    let discussion: String
    /// The exit codes this command can end with, and only those.
    let exitCodes: [ExitCode]

    var usageLine: String { "Usage: \(usage)" }

    /// The help, its lines wrapped to `width` columns.
    func render(width: Int = TextWrapping.defaultWidth) -> String {
        var lines = TextWrapping.wrap("OVERVIEW: \(overview)", width: width, indent: 0) + [""]
            + TextWrapping.wrap("USAGE: \(usage)", width: width, indent: 2) + ["", "OPTIONS:"]
        let rows = options.map { spec -> (String, String) in
            var help = spec.help
            if let d = spec.defaultText { help += " (default: \(d))" }
            return (spec.synopsis, help)
        } + [("-h, --help", "Show help information.")]
        let column = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
        for (synopsis, help) in rows {
            let helpColumn = String(repeating: " ", count: column + 2)
            if synopsis.count + 2 > column {
                lines.append("  \(synopsis)")
                lines += TextWrapping.wrap(helpColumn + help, width: width, indent: column + 2)
            } else {
                lines += TextWrapping.wrap("  " + synopsis + String(repeating: " ", count: column - synopsis.count) + help,
                                           width: width, indent: column + 2)
            }
        }
        if !discussion.isEmpty {
            lines.append("")
            lines.append(TextWrapping.wrapLines(discussion, width: width))
        }
        lines.append("")
        lines.append("EXIT CODES:")
        for code in exitCodes {
            let number = String(code.rawValue)
            lines += TextWrapping.wrap("  " + number + String(repeating: " ", count: 4 - number.count) + code.meaning(in: name),
                                       width: width, indent: 6)
        }
        return lines.joined(separator: "\n")
    }
}
