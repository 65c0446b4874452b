/// The fish completions, written from the option table.
enum FishCompletion {
    static func render(_ subcommands: [Subcommand]) -> String {
        let names = subcommands.map(\.help.name)
        var script = """
        # fish completions for beacon; written by `beacon generate-completion fish`.

        function __beacon_hci
            set -l token (commandline -ct | string replace -r '^--hci=' '')
            switch $token
                case 'btsnoop:*' 'unix:*' 'serial:*'
                    set -l prefix (string replace -r ':.*' ':' -- $token)
                    __fish_complete_path (string replace -r '^[^:]*:' '' -- $token) | string replace -r '^' $prefix
                case '*'
                    for path in /sys/class/bluetooth/hci*
                        basename $path
                    end
                    printf '%s\\n' \(ControllerCompletion.prefixes.joined(separator: " "))
            end
        end

        complete -c beacon -f
        complete -c beacon -n __fish_use_subcommand -s V -l version -d 'Show the version'
        complete -c beacon -s h -l help -d 'Show help information'
        complete -c beacon -n __fish_use_subcommand -a help -d 'Show help for a subcommand'
        complete -c beacon -n '__fish_seen_subcommand_from help' -a '\(names.joined(separator: " "))'

        """
        for subcommand in subcommands {
            script += "complete -c beacon -n __fish_use_subcommand -a \(subcommand.help.name) -d \(quote(subcommand.summary))\n"
        }
        for subcommand in subcommands {
            for option in subcommand.help.options {
                var line = "complete -c beacon -n '__fish_seen_subcommand_from \(subcommand.help.name)' -l \(option.name)"
                switch option.completion {
                case .none: line += option.takesValue ? " -x" : ""
                case .files: line += " -r -F"
                case .controller: line += " -x -a '(__beacon_hci)'"
                case .words(let words): line += " -x -a \(quote(words.joined(separator: " ")))"
                case .wordsOrFiles(let words): line += " -r -F -a \(quote(words.joined(separator: " ")))"
                }
                script += line + " -d \(quote(option.help))\n"
            }
        }
        return script
    }

    /// A fish single-quoted string.
    private static func quote(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
