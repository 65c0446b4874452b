import BeaconCore

/// One option a command accepts, described once for parsing, lookups and help; its description is its name.
struct OptionSpec: CustomStringConvertible {
    enum Kind { case flag, value(placeholder: String), repeatedValue(placeholder: String) }
    let name: String
    let kind: Kind
    let help: String
    /// Shown in help as `(default: …)`.
    let defaultText: String?
    /// The values a shell offers for it, when they are a fixed set its placeholder does not tell
    /// (the same placeholder can stand for different sets in different commands).
    let words: [String]?

    init(_ name: String, _ kind: Kind, _ help: String, default defaultText: String? = nil, words: [String]? = nil) {
        self.name = name
        self.kind = kind
        self.help = help
        self.defaultText = defaultText
        self.words = words
    }

    var description: String { name }

    /// The same option worded for one command.
    func withHelp(_ help: String, default defaultText: String?) -> OptionSpec {
        OptionSpec(name, kind, help, default: defaultText, words: words)
    }

    var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }

    var isRepeatable: Bool {
        if case .repeatedValue = kind { return true }
        return false
    }

    /// `--uuid <uuid>` as it appears in usage and help.
    var synopsis: String {
        switch kind {
        case .flag: "--\(name)"
        case .value(let p), .repeatedValue(let p): "--\(name) <\(p)>"
        }
    }
}

/// A usage error: printed as `Error: …` followed by the command's usage, exit 64.
struct UsageError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}

extension UsageError {
    /// An invalid value of an option with a fixed set of `words`: what the option takes and, when one of
    /// them is close to what was typed (`typed`, the name part of a value with parameters), the one likely meant.
    static func invalidChoice(_ text: String, for synopsis: String, expected: String, words: [String],
                              typed: String? = nil) -> UsageError {
        UsageError(NearestMatch.message("Invalid value '\(text)' for '\(synopsis)': expected \(expected)",
                                        typed: typed ?? text, among: words))
    }

    /// The part of `text` before its parameters (`kalman` of `kalman:0.01,4`).
    static func choiceName(_ text: String) -> String { String(text.prefix { $0 != ":" }) }
}

/// The options given on a command line, read back by the specs that declared them: `parsed[RangeOptions.interval]`.
final class ParsedOptions {
    private let specs: [OptionSpec]
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private(set) var helpRequested = false
    /// The names of the options looked up so far.
    private var read: Set<String> = []

    private init(specs: [OptionSpec]) { self.specs = specs }

    /// The value given last, nil when the option was not given.
    subscript(option: OptionSpec) -> String? { values[lookUp(option)]?.last }
    /// Every value of a repeatable option, in the order given.
    func all(_ option: OptionSpec) -> [String] { values[lookUp(option)] ?? [] }
    func has(_ flag: OptionSpec) -> Bool { flags.contains(lookUp(flag)) }
    /// Whether the option was given, as a flag or with a value.
    func given(_ option: OptionSpec) -> Bool { option.takesValue ? self[option] != nil : has(option) }

    /// The options given that no lookup has read: after a command has taken its options, each is one it
    /// declares and then ignores.
    var unread: [String] {
        specs.map(\.name).filter { !read.contains($0) && (values[$0] != nil || flags.contains($0)) }
    }

    /// An option's name, checked against the options the command declares: looking up one it does not
    /// declare is a mistake in the command, which would read nothing.
    private func lookUp(_ option: OptionSpec) -> String {
        assert(specs.contains { $0.name == option.name && $0.takesValue == option.takesValue && $0.isRepeatable == option.isRepeatable },
               "'--\(option.name)' is not an option of this command")
        read.insert(option.name)
        return option.name
    }

    /// Parses `--name value`, `--name=value` and flags; `-h`/`--help` anywhere asks for help.
    static func parse(_ arguments: [String], specs: [OptionSpec]) throws(UsageError) -> ParsedOptions {
        let parsed = ParsedOptions(specs: specs)
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" {
                parsed.helpRequested = true
                continue
            }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw UsageError("Unexpected argument '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw UsageError(NearestMatch.message("Unknown option '--\(name)'", typed: "--\(name)",
                                                      among: specs.map { "--\($0.name)" }))
            }
            if !spec.takesValue {
                if inlineValue != nil { throw UsageError("Option '--\(name)' takes no value") }
                if parsed.flags.contains(name) { throw UsageError("Option '--\(name)' given more than once") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count, !isOptionLike(arguments[index]) else {
                    throw UsageError("Missing value for '\(spec.synopsis)'")
                }
                value = arguments[index]
                index += 1
            }
            if !spec.isRepeatable, parsed.values[name] != nil {
                throw UsageError("Option '--\(name)' given more than once")
            }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }

    /// `--x` looks like an option; `-59` (a negative number) and `-` (standard output) do not.
    private static func isOptionLike(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text != "-" else { return false }
        return !(text.dropFirst().first.map { $0.isNumber } ?? false)
    }
}
