/// A subcommand's description, rendered as help in the Swift argument-parser layout users know.
struct CommandHelp {
    let name: String
    let overview: String
    let usage: String
    let options: [OptionSpec]
    /// Extra paragraphs after OPTIONS (formats, examples).
    let discussion: String
    /// The exit codes this command can end with, listed under EXIT CODES.
    let exitCodes: [ExitCode]

    var usageLine: String { "Usage: \(usage)" }

    func render() -> String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: \(usage)", "", "OPTIONS:"]
        let rows = options.map { spec -> (String, String) in
            var help = spec.help
            if let d = spec.defaultText { help += " (default: \(d))" }
            return (spec.synopsis, help)
        } + [("-h, --help", "Show help information.")]
        let width = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
        for (synopsis, help) in rows {
            if synopsis.count + 2 > width {
                lines.append("  \(synopsis)")
                lines.append(String(repeating: " ", count: width + 2) + help)
            } else {
                lines.append("  " + synopsis + String(repeating: " ", count: width - synopsis.count) + help)
            }
        }
        if !discussion.isEmpty {
            lines.append("")
            lines.append(discussion)
        }
        lines.append("")
        lines.append("EXIT CODES:")
        for code in exitCodes {
            let number = String(code.rawValue)
            lines.append("  " + number + String(repeating: " ", count: 4 - number.count) + code.meaning)
        }
        return lines.joined(separator: "\n")
    }
}
