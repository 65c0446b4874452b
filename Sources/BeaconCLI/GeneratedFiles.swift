/// Hidden subcommands that write the man page and the shell completions from the option table that
/// drives parsing and help, so none of them can drift from the others. `make install` runs them.
enum GeneratedFiles {
    static let manPageCommand = "generate-manpage"
    static let completionCommand = "generate-completion"

    static func run(_ command: String, _ arguments: [String], console: Console) -> Int32 {
        let text: String
        switch (command, arguments) {
        case (manPageCommand, []):
            text = ManPage.render(BeaconTool.subcommands)
        case (completionCommand, ["bash"]):
            text = BashCompletion.render(BeaconTool.subcommands)
        case (completionCommand, ["zsh"]):
            text = ZshCompletion.render(BeaconTool.subcommands)
        case (completionCommand, ["fish"]):
            text = FishCompletion.render(BeaconTool.subcommands)
        default:
            return BeaconTool.usageError(UsageError("Expected '\(manPageCommand)' or '\(completionCommand) bash|zsh|fish'"),
                                         usage: "Usage: beacon \(manPageCommand) | beacon \(completionCommand) bash|zsh|fish",
                                         console: console)
        }
        // The generators end every line themselves; writeLine adds the last newline.
        return console.print(String(text.dropLast())).rawValue
    }
}
