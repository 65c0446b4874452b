import Glibc
import Testing
@testable import BeaconTransport

@Suite("input and output files")
struct FileTests {
    @Test("a bounded read of an endless file stops at the bound")
    func boundedReadOfAnEndlessFile() throws {
        #expect(try InputFile.read("/dev/zero", atMost: 100_000).count == 100_000)
    }

    @Test("a bounded read of a shorter file reads it whole")
    func boundedReadOfAShortFile() throws {
        let path = temporaryPath("short")
        defer { unlink(path) }
        try writeFile(path, [1, 2, 3])
        #expect(try InputFile.read(path, atMost: 4) == [1, 2, 3])
        #expect(try InputFile.read(path, atMost: 2) == [1, 2])
    }

    @Test("removing an unfinished output: a regular file goes, a missing one or a FIFO is nothing to remove")
    func removesOnlyRegularFiles() throws {
        let file = temporaryPath("file"), fifo = temporaryPath("fifo")
        defer { unlink(fifo) }
        try writeFile(file, [1])
        #expect(try OutputFile.remove(file))
        #expect(access(file, F_OK) != 0)
        #expect(try !OutputFile.remove(file))
        try syscall("mkfifo") { mkfifo(fifo, 0o600) }
        #expect(try !OutputFile.remove(fifo))
        #expect(access(fifo, F_OK) == 0)
    }

    @Test("an output file opened appending keeps what the file held and adds to its end; opened plainly, it is emptied")
    func appendsOrEmpties() throws {
        let path = temporaryPath("appended")
        defer { unlink(path) }
        try writeFile(path, [1, 2])
        for bytes: [UInt8] in [[3], [4, 5]] {
            let file = try OutputFile(path: path, appending: true)
            try file.append { $0 += bytes }
            try file.close()
        }
        #expect(try InputFile.read(path) == [1, 2, 3, 4, 5])
        let emptied = try OutputFile(path: path)
        try emptied.close()
        #expect(try InputFile.read(path) == [])
    }

    @Test("a regular file the kernel will not unlink is a failure, not a removal")
    func unlinkFailureIsThrown() {
        // procfs files are regular files that nobody, root included, can unlink.
        let error = #expect(throws: SystemError.self) { try OutputFile.remove("/proc/version") }
        #expect(error?.call == "unlink(/proc/version)")
    }

    @Test("directories: made with their parents (again is no error), listed by suffix in order, and a failure names the call and the path")
    func directories() throws {
        let root = temporaryPath("tree")
        let leaf = "\(root)/a/b"
        defer {
            for path in ["\(leaf)/2.csv", "\(leaf)/1.csv", "\(leaf)/notes.txt"] { unlink(path) }
            for path in [leaf, "\(root)/a", root] { rmdir(path) }
        }
        #expect(!Directory.exists(root))
        try Directory.makeWithParents(leaf)
        try Directory.makeWithParents(leaf)
        #expect(Directory.exists(leaf))
        for name in ["2.csv", "notes.txt", "1.csv"] { try writeFile("\(leaf)/\(name)", [1]) }
        #expect(try Directory.names(in: leaf, suffix: ".csv") == ["1.csv", "2.csv"])
        #expect(!Directory.exists("\(leaf)/1.csv"))
        let missing = #expect(throws: SystemError.self) { try Directory.names(in: "\(root)/none", suffix: "") }
        #expect(missing == SystemError(call: "opendir(\(root)/none)", errno: ENOENT))
        let blocked = #expect(throws: SystemError.self) { try Directory.makeWithParents("\(leaf)/1.csv/c") }
        #expect(blocked == SystemError(call: "mkdir(\(leaf)/1.csv/c/)", errno: ENOTDIR))
    }
}
