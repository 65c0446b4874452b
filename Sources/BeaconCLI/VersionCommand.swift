/// `beacon version`, `beacon --version` and `beacon -V`: the version alone, as the Swift argument parser prints it.
enum VersionCommand {
    static let help = CommandHelp(
        name: "version",
        overview: "Print beacon's version.",
        usage: "beacon version",
        options: [],
        discussion: "",
        exitCodes: [.success, .usage, .ioError]
    )

    static func run(console: Console) -> ExitCode {
        console.print(BeaconVersion.number)
    }
}
