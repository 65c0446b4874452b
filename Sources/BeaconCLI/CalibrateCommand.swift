import BeaconCore
import BeaconTransport

/// `beacon calibrate`: measure one beacon at a known distance, or fit a site's path-loss model.
enum CalibrateCommand {
    static func run(_ options: CalibrateOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        switch options {
        case .fit(let samples):
            return fit(samples, console: console, now: Clock.now())
        case .measure:
            return measure(options, console: console, signals: signals)
        }
    }

    static func fit(_ samples: [CalibrationSample], console: Console, now: Timestamp) -> ExitCode {
        switch PathLossFit.fit(samples) {
        case .success(let fit):
            var output = LineOutput(console: console)
            output.write(OutputLine.encode(.fit(time: now, fit)))
            output.finish()
            return .success
        case .failure(let error):
            console.diagnose("Error: cannot fit: \(error)")
            return .dataError
        }
    }
}
