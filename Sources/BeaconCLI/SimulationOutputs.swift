import BeaconCore
import BeaconSimulation
import BeaconTransport

/// The files one run of `beacon simulate` writes: a plain scene's capture, or a site scene's directory
/// of one capture per gateway (`NAME.btsnoop`) and the site (`site.json`); and the ground truth.
final class SimulationOutputs {
    /// Where each file goes, worked out before any is opened.
    struct Paths: Equatable {
        /// One per receiver, in the receivers' order (the site's gateways' order).
        var captures: [String]
        /// A site scene's directory, and its site file in it.
        var directory: String?
        var siteFile: String?
        /// The ground-truth file; nil for none or for stdout.
        var truth: String?

        /// Every file, captures first.
        var files: [String] { captures + (siteFile.map { [$0] } ?? []) + (truth.map { [$0] } ?? []) }
    }

    /// A site gateway whose name cannot be a file name in the directory.
    struct UnusableName: Error {
        let index: Int
        let name: String

        /// The message, the field named as `gateways[i].name` under `prefix` (`site.` in a scene file).
        func message(prefix: String) -> String {
            "\(prefix)gateways[\(index)].name: '\(DiagnosticEscaping.escaped(name))' cannot name a capture file "
                + "(a name with '/', '.', '..' or a leading '-')"
        }
    }

    /// The paths for `scene` with `--out out` and `--truth truth` ("-" is stdout).
    static func paths(for scene: Scene, out: String, truth: String?) throws(UnusableName) -> Paths {
        let truthFile = truth == "-" ? nil : truth
        guard let site = scene.site else { return Paths(captures: [out], truth: truthFile) }
        let directory = out.hasSuffix("/") ? String(out.dropLast()) : out
        var captures: [String] = []
        for (index, gateway) in site.gateways.enumerated() {
            let name = gateway.name
            guard name != ".", name != "..", !name.contains("/"), !name.hasPrefix("-") else {
                throw UnusableName(index: index, name: name)
            }
            captures.append("\(directory)/\(name).btsnoop")
        }
        return Paths(captures: captures, directory: out, siteFile: "\(directory)/site.json", truth: truthFile)
    }

    let paths: Paths
    let captures: [OutputFile]
    let siteFile: OutputFile?
    let truth: OutputFile?
    /// True when this run made the directory: removing the outputs removes it too.
    private let madeDirectory: Bool

    /// Opens every file of `paths` (making the directory when missing); a failure removes what was made,
    /// `warn` told of what could not be.
    init(_ paths: Paths, warn: (String) -> Void) throws(TransportError) {
        self.paths = paths
        let made = try paths.directory.map { path throws(TransportError) in try OutputDirectory.make(path) } ?? false
        var opened: [OutputFile] = []
        do {
            for path in paths.files { opened.append(try OutputFile(path: path, option: path == paths.truth ? "--truth" : "--out")) }
        } catch {
            _ = Self.remove(opened.map(\.path), directory: made ? paths.directory : nil, warn: warn)
            throw error
        }
        madeDirectory = made
        captures = Array(opened.prefix(paths.captures.count))
        siteFile = paths.siteFile == nil ? nil : opened[paths.captures.count]
        truth = paths.truth == nil ? nil : opened.last
    }

    /// Writes everything buffered and closes every file.
    func close() throws(SystemError) {
        for file in captures + [siteFile, truth].compactMap({ $0 }) { try file.close() }
    }

    /// Removes every file (and the directory this run made), unfinished: the paths it removed. A file
    /// that cannot be removed is a warning through `warn`.
    func removeUnfinished(warn: (String) -> Void) -> [String] {
        Self.remove(paths.files, directory: madeDirectory ? paths.directory : nil, warn: warn)
    }

    private static func remove(_ files: [String], directory: String?, warn: (String) -> Void) -> [String] {
        var removed: [String] = []
        for path in files {
            do throws(SystemError) {
                if try OutputFile.remove(path) { removed.append(path) }
            } catch {
                warn("Warning: the unfinished \(path) is left: \(error)")
            }
        }
        if let directory {
            do throws(SystemError) {
                try OutputDirectory.remove(directory)
                removed.append(directory)
            } catch {
                warn("Warning: the directory \(directory) is left: \(error)")
            }
        }
        return removed
    }
}
