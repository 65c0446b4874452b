// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "beacon",
    products: [
        .executable(name: "beacon", targets: ["beacon"]),
    ],
    targets: [
        // Kernel HCI socket constants, address layouts and bind helpers (headers from libbluetooth-dev).
        .target(name: "CHCI"),
        // Linux and glibc calls Swift's Glibc module does not import: signalfd, mallopt.
        .target(name: "CSystem"),
        // Pure protocol and state-machine logic: no syscalls, no clock reads, no printing.
        .target(name: "BeaconCore"),
        // Every syscall: sockets, serial lines, capture files, poll, signals; the controller driver.
        .target(name: "BeaconTransport", dependencies: ["BeaconCore", "CHCI", "CSystem"]),
        // Argument parsing, help, commands and exit codes.
        .target(name: "BeaconCLI", dependencies: ["BeaconCore", "BeaconTransport", "BeaconSimulation", "BeaconMQTT"]),
        .executableTarget(name: "beacon", dependencies: ["BeaconCLI"]),
        // Debian's libmosquitto (libmosquitto-dev), through a module map only: its header, not a link
        // (the library is opened when --mqtt is given).
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // Publishing output lines to an MQTT broker; the core and the commands never see a broker.
        .target(name: "BeaconMQTT", dependencies: ["BeaconCore", "BeaconTransport", "CMosquitto"]),
        // Simulated scenes (beacons, radio, receiver) as HCI packets and ground truth, for `beacon simulate`,
        // benchmarks, soak runs and tests.
        .target(name: "BeaconSimulation", dependencies: ["BeaconCore"]),
        .executableTarget(name: "beacon-bench", dependencies: ["BeaconCore", "BeaconSimulation", "BeaconTransport"],
                          path: "Sources/BeaconBench"),
        // Writes a simulated day of churning beacons as a btsnoop capture, for `make soak`.
        .executableTarget(name: "beacon-soak", dependencies: ["BeaconCore", "BeaconSimulation"],
                          path: "Sources/BeaconSoak"),
        // make eval: beacon's estimators and its peers' on the real measurements and the shipped scenes.
        .target(name: "BeaconEvaluation", dependencies: ["BeaconCore", "BeaconSimulation"]),
        .executableTarget(name: "beacon-eval", dependencies: ["BeaconEvaluation", "BeaconCore", "BeaconTransport"],
                          path: "Sources/BeaconEval"),
        // Checks JSON lines against the schemas in docs/, for the unit tests of every target that prints lines.
        .target(name: "SchemaValidation", path: "Tests/SchemaValidation"),
        // The pseudo-terminal calls the serial-line tests use, which the Glibc module does not import.
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        .testTarget(name: "BeaconCoreTests", dependencies: ["BeaconCore", "BeaconSimulation", "SchemaValidation"]),
        .testTarget(name: "BeaconSimulationTests", dependencies: ["BeaconSimulation", "BeaconCore"]),
        .testTarget(name: "BeaconTransportTests", dependencies: ["BeaconTransport", "BeaconCore", "CPseudoTerminal"]),
        .testTarget(name: "BeaconCLITests", dependencies: ["BeaconCLI", "BeaconCore", "BeaconTransport", "BeaconSimulation", "SchemaValidation"]),
        .testTarget(name: "BeaconEvaluationTests", dependencies: ["BeaconEvaluation", "BeaconCore", "BeaconSimulation"]),
        .testTarget(name: "BeaconMQTTTests", dependencies: ["BeaconMQTT", "BeaconCore"]),
        .testTarget(name: "IntegrationTests", dependencies: ["BeaconCore"]),
    ]
)
