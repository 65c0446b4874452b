/// The bash completion script (for bash-completion's loader), written from the option table.
enum BashCompletion {
    static func render(_ subcommands: [Subcommand]) -> String {
        let names = subcommands.map(\.help.name)
        var script = """
        # bash completion for beacon; written by `beacon generate-completion bash`.

        _beacon_hci() {
            local cur=$1 prefix
            case $cur in
                btsnoop:* | unix:*)
                    prefix=${cur%%:*}:
                    COMPREPLY=($(compgen -f -P "$prefix" -- "${cur#*:}")) ;;
                serial:*)
                    COMPREPLY=($(compgen -f -P serial: -- "${cur#serial:}")) ;;
                *)
                    local kernel=() path
                    for path in /sys/class/bluetooth/hci*; do
                        [[ -e $path ]] && kernel+=("${path##*/}")
                    done
                    COMPREPLY=($(compgen -W "${kernel[*]} \(ControllerCompletion.prefixes.joined(separator: " "))" -- "$cur")) ;;
            esac
            [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *: ]] && compopt -o nospace
            __ltrim_colon_completions "$cur"
        }

        _beacon() {
            local cur prev words cword split
            _init_completion -s -n : || return
            if ((cword == 1)); then
                COMPREPLY=($(compgen -W "\(names.joined(separator: " ")) help -V --version --help" -- "$cur"))
                return
            fi
            local options=""
            case ${words[1]} in
                help)
                    ((cword == 2)) && COMPREPLY=($(compgen -W "\(names.joined(separator: " "))" -- "$cur"))
                    return ;;

        """
        for subcommand in subcommands {
            let options = subcommand.help.options
            script += "        \(subcommand.help.name))\n"
            script += "            case $prev in\n"
            for option in options where option.takesValue {
                script += "                --\(option.name)) \(valueAction(option.completion)); return ;;\n"
            }
            script += "            esac\n"
            script += "            options=\"\((options.map { "--\($0.name)" } + ["--help"]).joined(separator: " "))\" ;;\n"
        }
        script += """
                *) return ;;
            esac
            $split && return
            COMPREPLY=($(compgen -W "$options" -- "$cur"))
        }
        complete -F _beacon beacon

        """
        return script
    }

    /// The bash statement that completes an option's value (nothing for free text).
    private static func valueAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return ":"
        case .files: return "_filedir"
        case .controller: return "_beacon_hci \"$cur\""
        case .words(let words): return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); __ltrim_colon_completions \"$cur\""
        case .wordsOrFiles(let words): return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); _filedir"
        }
    }
}
