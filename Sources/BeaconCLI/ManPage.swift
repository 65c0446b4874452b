import BeaconCore

/// beacon(1) in troff (man macros), written from the same subcommand and option tables that drive
/// parsing and help.
enum ManPage {
    static func render(_ subcommands: [Subcommand]) -> String {
        var page = Page()
        page.request(".TH BEACON 1 \(BeaconVersion.date) \"beacon \(BeaconVersion.number)\" \"User Commands\"")
        page.request(".SH NAME")
        page.raw("beacon \\- advertise and range iBeacons through a Bluetooth controller's HCI, printing JSON lines")
        page.request(".SH SYNOPSIS")
        for (index, subcommand) in subcommands.enumerated() {
            if index > 0 { page.request(".br") }
            page.text(subcommand.help.usage)
        }
        page.request(".SH DESCRIPTION")
        page.text("""
            beacon speaks HCI straight to a Bluetooth controller: it advertises as an iBeacon, monitors beacon \
            regions and ranges the beacons inside them, as CoreLocation does for an iPhone app. Standard \
            output carries only data, one JSON object per line; diagnostics go to standard error.
            """)
        page.request(".SH COMMANDS")
        for subcommand in subcommands {
            command(subcommand, into: &page)
        }
        page.request(".SH CONTROLLERS")
        page.raw("Every command that talks to a controller takes \\fB\\-\\-hci\\fR \\fIspec\\fR, one of: \(Page.escape(TransportSpec.forms)).")
        page.text("""
            hciN is the kernel's raw channel, shared with bluetoothd, and needs CAP_NET_RAW; hci-user:N is the \
            kernel's user channel, exclusive to beacon, needs CAP_NET_ADMIN and a controller that is down. \
            tcp:, unix: and serial: carry H4 to emulated controllers, bridges and UART boards; btsnoop: replays \
            a capture as fast as it can be read, with the capture's own times.
            """)
        page.request(".SH ENVIRONMENT")
        page.request(".TP")
        page.request(".B \(CommonOptions.hciEnvironmentVariable)")
        page.raw("The controller when \\fB\\-\\-hci\\fR is not given; hci0 when it is not set either.")
        page.request(".TP")
        page.request(".B \(BrokerOptions.passwordVariable)")
        page.raw("The MQTT broker's password when \\fB\\-\\-mqtt\\-password\\-file\\fR is not given; it takes the place "
                 + "of a password in the \\fB\\-\\-mqtt\\fR URL, which ps(1) shows to every user.")
        page.request(".SH OUTPUT")
        page.text("""
            Every line has "event" and an ISO-8601 UTC "time". device: one per controller (devices). \
            state: a region's state, unknown at the start, then inside or outside (range). enter, exit: a \
            region's state changes (range). range: every interval while a region is inside, its beacons \
            nearest first with rssi, filteredRssi, measuredPower, accuracy (metres, -1 when unknown), \
            proximity, address, samples and lastSeen (range). advertising, stopped: advertising turned on \
            and off again (advertise). calibration, fit: a measurement and a path-loss fit (calibrate). \
            beacon: every interval, one per beacon heard, with its format (ibeacon, altbeacon, eddystone-uid, \
            eddystone-url, eddystone-tlm, eddystone-eid), identity, measuredPower (Eddystone: its txPower at 0 m less \
            41 dB), rssi, samples, address, firstSeen, lastSeen and any Eddystone telemetry (scan); \
            advertisement: one per advertisement (scan, with each). location: every interval, one per beacon \
            some gateway heard recently, with its room and position; room: a beacon's room changes; away: no \
            gateway has heard a beacon for away-after (locate). survey: a surveyed point, one per gateway, with \
            beacon, x, y, floor, gateway, rssi (the median, null when not heard), samples and spread (survey). \
            Numbers have one precision per quantity: an RSSI \
            one decimal, metres, a spread of readings and a path-loss exponent two.
            """)
        page.request(".SH FILES")
        for (file, meaning) in Self.files {
            page.request(".TP")
            page.request(".I \(file)")
            page.text(meaning)
        }
        page.request(".SH EXIT STATUS")
        page.text("Every code any command can end with; each command's --help gives only its own, with that command's reasons.")
        for code in ExitCode.allCases {
            page.request(".TP")
            page.request(".B \(code.rawValue)")
            page.text(code.meaning)
        }
        page.request(".SH EXAMPLES")
        for (index, (purpose, command)) in Self.examples.enumerated() {
            if index > 0 { page.request(".PP") }
            page.text(purpose)
            page.request(".PP")
            page.request(".RS 4\n.nf")
            page.text(command)
            page.request(".fi\n.RE")
        }
        page.request(".SH SEE ALSO")
        page.text("btmon(1), hciconfig(1), setcap(8), systemd.exec(5), mosquitto_sub(1)")
        return page.text
    }

    /// The files beacon and its systemd units read.
    static let files: [(String, String)] = [
        ("/etc/default/beacon", "The environment file of beacon.service: BEACON_RANGE_ARGS, the arguments of its beacon range, "
         + "and \(BrokerOptions.passwordVariable). Keep it mode 0600, owned by root: systemd reads it before starting beacon, "
         + "and the password in it is nobody else's business. The Debian package installs it so, its variables described "
         + "and commented out."),
        ("/etc/default/beacon-INSTANCE", "The environment file of beacon@INSTANCE.service (for example beacon@scan or beacon@hci1): "
         + "BEACON_ARGS, the whole command line after beacon (the subcommand first), and \(BrokerOptions.passwordVariable); mode 0600 too."),
        ("/usr/lib/systemd/system/beacon.service, beacon@.service", "The units the Debian package installs (make install: "
         + "in PREFIX/lib/systemd/system), neither enabled. Their standard output "
         + "goes nowhere (the lines are for the broker; one a second in the journal would wear out an SD card); standard error, "
         + "the warnings and errors, goes to the journal."),
    ]

    /// Command lines to start from, each with what it does.
    static let examples: [(String, String)] = [
        ("Range the beacons of one UUID with the first controller, printing a line a second:",
         "beacon range --uuid E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"),
        ("List every beacon heard, of any format, with the second controller:", "beacon scan --hci hci1"),
        ("Publish a region's state and the ranged distances to Home Assistant, the password in a file:",
         "beacon range --region keys=E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1 --room hall \\\n"
         + "    --mqtt mqtt://gateway@broker/beacon --mqtt-password-file /etc/beacon/mqtt-password"),
        ("Publish every beacon heard to the broker, one topic per device:",
         "BEACON_MQTT_PASSWORD=secret beacon scan --mqtt mqtt://gateway@broker/beacon"),
        ("Try it without hardware: simulate a beacon on a desk, then range the capture:",
         "beacon simulate --scene desk --out desk.btsnoop\nbeacon range --hci btsnoop:desk.btsnoop --uuid E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"),
        ("Advertise as an iBeacon until stopped:", "beacon advertise --uuid E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 --major 1 --minor 2"),
    ]

    private static func command(_ subcommand: Subcommand, into page: inout Page) {
        let help = subcommand.help
        page.request(".SS \(help.name)")
        page.text(help.overview)
        page.request(".PP")
        page.raw("\\fBUsage:\\fR " + Page.escape(help.usage))
        for option in help.options {
            page.request(".TP")
            switch option.kind {
            case .flag:
                page.raw("\\fB\(option.escapedName)\\fR")
            case .value(let placeholder), .repeatedValue(let placeholder):
                page.raw("\\fB\(option.escapedName)\\fR \\fI\(Page.escape(placeholder))\\fR")
            }
            page.text(option.help + (option.defaultText.map { " (default: \($0))" } ?? ""))
        }
        if !help.discussion.isEmpty {
            page.request(".PP")
            var preformatted = false
            for line in help.discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                let indented = line.hasPrefix("  ")
                if indented != preformatted {
                    page.request(indented ? ".RS 2\n.nf" : ".fi\n.RE")
                    preformatted = indented
                }
                page.text(String(indented ? line.dropFirst(2) : line))
            }
            if preformatted { page.request(".fi\n.RE") }
        }
        page.request(".PP")
        page.text("Exit codes: " + help.exitCodes.map { String($0.rawValue) }.joined(separator: ", ") + ".")
    }

    /// Lines of troff: requests as given, text escaped.
    private struct Page {
        var text = ""

        mutating func request(_ line: String) {
            text += line + "\n"
        }

        /// Plain text, escaped.
        mutating func text(_ line: String) {
            raw(Self.escape(line))
        }

        /// Text already in troff.
        mutating func raw(_ line: String) {
            // A line starting with a dot or quote would be taken for a request.
            text += (line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" : "") + line + "\n"
        }

        /// Backslashes printed as such, and option dashes as the ASCII hyphen-minus users type.
        /// Characters beyond ASCII as named Unicode escapes, so no input encoding is assumed.
        static func escape(_ text: String) -> String {
            let ascii = text.unicodeScalars.map { scalar in
                scalar.isASCII ? String(scalar) : "\u{1}[u" + hex4(scalar.value) + "]"
            }.joined()
            return ascii.replacing("\\", with: "\\e").replacing("--", with: "\\-\\-").replacing(" -h", with: " \\-h")
                .replacing("\u{1}", with: "\\")
        }

        private static func hex4(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }
}

extension OptionSpec {
    /// `\-\-uuid` in troff.
    fileprivate var escapedName: String { "\\-\\-" + name }
}
