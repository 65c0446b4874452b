/// The zsh completion function (`#compdef beacon`), written from the option table.
enum ZshCompletion {
    static func render(_ subcommands: [Subcommand]) -> String {
        var script = """
        #compdef beacon
        # zsh completion for beacon; written by `beacon generate-completion zsh`.

        _beacon_hci() {
            if compset -P '(btsnoop|unix|serial):'; then
                _files
            else
                local -a kernel
                kernel=(/sys/class/bluetooth/hci*(N:t))
                compadd -S '' -- \(ControllerCompletion.prefixes.joined(separator: " "))
                (( $#kernel )) && compadd -- $kernel
            fi
        }

        _beacon() {
            local curcontext=$curcontext state line
            _arguments -C \\
                '(- *)'{-V,--version}'[Show the version]' \\
                '(- *)'{-h,--help}'[Show help information]' \\
                '1:subcommand:->subcommand' \\
                '*::options:->options'
            case $state in
                subcommand)
                    local -a subcommands
                    subcommands=(

        """
        for subcommand in subcommands {
            script += "                \(quote(subcommand.help.name + ":" + subcommand.summary))\n"
        }
        script += """
                        'help:Show help for a subcommand'
                    )
                    _describe subcommand subcommands ;;
                options)
                    case $words[1] in
                        help) _values subcommand \(subcommands.map(\.help.name).joined(separator: " ")) ;;

        """
        for subcommand in subcommands {
            script += "                \(subcommand.help.name))\n                    _arguments \\\n"
            for option in subcommand.help.options {
                script += "                        " + quote(spec(option)) + " \\\n"
            }
            script += "                        '(- *)'{-h,--help}'[Show help information]' ;;\n"
        }
        script += """
                    esac ;;
            esac
        }

        _beacon "$@"

        """
        return script
    }

    /// `--uuid=[help]:uuid:action`, `*` first for a repeatable option.
    private static func spec(_ option: OptionSpec) -> String {
        let help = "[" + option.help.replacing("\\", with: "\\\\").replacing("[", with: "\\[").replacing("]", with: "\\]") + "]"
        switch option.kind {
        case .flag:
            return "--\(option.name)\(help)"
        case .value(let placeholder), .repeatedValue(let placeholder):
            let label = placeholder.replacing(":", with: "\\:")
            let action: String
            switch option.completion {
            case .none: action = " "
            case .files: action = "_files"
            case .controller: action = "_beacon_hci"
            case .words(let words): action = "(\(words.joined(separator: " ")))"
            case .wordsOrFiles(let words): action = "{_alternative 'scenes:scene:(\(words.joined(separator: " ")))' 'files:file:_files'}"
            }
            return (option.isRepeatable ? "*" : "") + "--\(option.name)=\(help):\(label):\(action)"
        }
    }

    /// A single-quoted zsh word.
    private static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
