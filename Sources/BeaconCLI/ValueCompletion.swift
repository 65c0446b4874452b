import BeaconCore
import BeaconSimulation

/// What a shell can offer for an option's value, read from the option table's placeholders and the
/// forms the parsers accept, so completions follow the options they complete.
enum ValueCompletion: Equatable {
    /// Free text: a UUID, a number, a duration.
    case none
    case files
    /// A `--hci` spec: the kernel's controllers, hci-user:N, and the tcp:, unix:, serial: and btsnoop: prefixes.
    case controller
    case words([String])
    /// Built-in names, or a file.
    case wordsOrFiles([String])
}

extension OptionSpec {
    var completion: ValueCompletion {
        if let words { return .words(words) }
        let placeholder: String
        switch kind {
        case .flag: return .none
        case .value(let text), .repeatedValue(let text): placeholder = text
        }
        switch placeholder {
        case "file", "capture": return .files
        case "spec": return .controller
        case "filter": return .words(Self.leadingWords(of: RSSIFilterKind.forms))
        case "model": return .words(Self.leadingWords(of: DistanceModel.forms))
        case "kind": return .words(ReceiverModel.ReportFormat.allCases.map(\.rawValue))
        case "name|file": return .wordsOrFiles(Scene.allNamed.map(\.name))
        default: return .none
        }
    }

    /// "mean, median[:WINDOW], log:EXPONENT" → mean, median, log: — each form up to its first parameter.
    static func leadingWords(of forms: String) -> [String] {
        forms.split(separator: ",").map { form in
            String(form.trimmingPrefix(" ").prefix { $0 != "[" && !$0.isUppercase })
        }.filter { !$0.isEmpty }
    }
}

/// The `--hci` forms every shell offers besides the kernel's controllers.
enum ControllerCompletion {
    static let prefixes = ["hci-user:", "tcp:", "unix:", "serial:", "btsnoop:"]
}
