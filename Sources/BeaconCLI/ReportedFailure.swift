/// A failure already reported on the console (its one error line written): the command only has to
/// exit with `exit`.
struct ReportedFailure: Error {
    let exit: ExitCode
}
