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
        // Pure protocol and state-machine logic: no syscalls, no clock reads, no printing.
        .target(name: "BeaconCore"),
        // Every syscall: sockets, serial lines, capture files, poll, signals; the controller driver.
        .target(name: "BeaconTransport", dependencies: ["BeaconCore", "CHCI"]),
        // Argument parsing, help, commands and exit codes.
        .target(name: "BeaconCLI", dependencies: ["BeaconCore", "BeaconTransport", "BeaconSimulation"]),
        .executableTarget(name: "beacon", dependencies: ["BeaconCLI"]),
        // Simulated scenes (beacons, radio, receiver) as HCI packets and ground truth, for `beacon simulate`,
        // benchmarks, soak runs and tests.
        .target(name: "BeaconSimulation", dependencies: ["BeaconCore"]),
        .executableTarget(name: "beacon-bench", dependencies: ["BeaconCore", "BeaconSimulation", "BeaconTransport"],
                          path: "Sources/BeaconBench"),
        // Writes a simulated day of churning beacons as a btsnoop capture, for `make soak`.
        .executableTarget(name: "beacon-soak", dependencies: ["BeaconCore", "BeaconSimulation"],
                          path: "Sources/BeaconSoak"),
        .testTarget(name: "BeaconCoreTests", dependencies: ["BeaconCore", "BeaconSimulation"]),
        .testTarget(name: "BeaconSimulationTests", dependencies: ["BeaconSimulation", "BeaconCore"]),
        .testTarget(name: "BeaconTransportTests", dependencies: ["BeaconTransport", "BeaconCore"]),
        .testTarget(name: "BeaconCLITests", dependencies: ["BeaconCLI", "BeaconCore", "BeaconTransport", "BeaconSimulation"]),
        .testTarget(name: "IntegrationTests", dependencies: ["BeaconCore"]),
    ]
)
