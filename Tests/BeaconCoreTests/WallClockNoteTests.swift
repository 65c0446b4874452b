import Testing
@testable import BeaconCore

@Suite("WallClockNote: the System Note --record writes where printed times move against its records")
struct WallClockNoteTests {
    @Test("the text gives the offset to the microsecond, with its sign, and reads back to the same offset",
          arguments: [Int64(0), 1, -1, 999_999, 3_600_000_000, -3_600_000_000, 3_599_999_123, 999_999_999_999_999_999])
    func roundTrip(microseconds: Int64) {
        let data = WallClockNote.data(offset: Micros(microseconds), cause: "stepped forward 3600.000s")
        #expect(data.last == 0)
        #expect(WallClockNote.offset(in: data) == Micros(microseconds))
    }

    @Test("the text as btmon shows it")
    func text() {
        #expect(WallClockNote.text(offset: .seconds(3600), cause: "stepped forward 3600.000s")
            == "beacon wall clock: record time +3600.000000s (stepped forward 3600.000s)")
        #expect(WallClockNote.text(offset: Micros(-1_500), cause: "x") == "beacon wall clock: record time -0.001500s (x)")
    }

    @Test("any other note, or one whose number is not ±SECONDS.MICROSECONDSs, gives no offset", arguments: [
        "Bluetooth daemon 5.66", "beacon wall clock: record time ", "beacon wall clock: record time 3600.000000s",
        "beacon wall clock: record time +3600.000000", "beacon wall clock: record time +3600.00000s",
        "beacon wall clock: record time +3600.0000000s", "beacon wall clock: record time +36a0.000000s",
        "beacon wall clock: record time +.000000s", "beacon wall clock: record time +1000000000000.000000s",
        "beacon wall clock: record time +-1.000000s", "BEACON WALL CLOCK: RECORD TIME +1.000000s",
    ])
    func otherNotes(text: String) {
        #expect(WallClockNote.offset(in: Array(text.utf8) + [0]) == nil)
    }

    @Test("the note ends at its NUL; without one, at the end of the record")
    func terminator() {
        #expect(WallClockNote.offset(in: Array("beacon wall clock: record time +2.000000s".utf8)) == .seconds(2))
        #expect(WallClockNote.offset(in: Array("beacon wall clock: record time +2.000000s".utf8) + [0] + Array("+9".utf8)) == .seconds(2))
        #expect(WallClockNote.offset(in: Array("beacon wall clock: record time +2.0".utf8) + [0] + Array("00000s".utf8)) == nil)
    }
}
