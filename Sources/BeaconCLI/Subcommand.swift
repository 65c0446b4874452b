/// A subcommand as the top-level help, the man page and the shell completions list it.
struct Subcommand {
    let help: CommandHelp
    /// One line for the list of subcommands.
    let summary: String

    init(_ help: CommandHelp, summary: String) {
        self.help = help
        self.summary = summary
    }
}
