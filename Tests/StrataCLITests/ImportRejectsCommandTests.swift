import Foundation
import Testing

/// `strata import --rejects` (issue 27, point 1): the rejects path may not
/// be the store, its companions, the input or an existing file without
/// `--force`; it is refused before anything is read, and the file is written
/// only when a record is rejected, whole, at the end.
struct ImportRejectsCommandTests {
    private let folder: ScratchFolder
    private let store: String
    private let input: String

    /// A Contacts store of one record and a CSV with one bad record.
    init() throws {
        folder = try ScratchFolder()
        store = folder.path("s.sqlite")
        input = folder.path("in.csv")
        try Data("first,last,score\r\nAnna,Rossi,12\r\n".utf8)
            .write(to: URL(fileURLWithPath: folder.path("one.csv")))
        let created = try StrataRunner.run([
            "import", store, folder.path("one.csv"), "--schemas", "Schemas/Contacts",
        ])
        try #require(created.status == 0, "\(created.stderr)")
        try Data("first,last,score\r\nLuca,Bianchi,lots\r\nOlga,Petrov,3\r\n".utf8)
            .write(to: URL(fileURLWithPath: input))
    }

    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    private func importSkipping(rejects: String, _ extra: [String] = []) throws
        -> StrataRunner.Outcome
    {
        try StrataRunner.run(
            ["import", store, input, "--on-error", "skip", "--rejects", rejects] + extra)
    }

    @Test func testTheStoreAsRejectsPathIsRefusedAndTheStoreKept() throws {
        let before = bytes(store)
        for extra in [[], ["--dry-run"], ["--force"]] {
            let outcome = try importSkipping(rejects: store, extra)
            #expect(outcome.status == 1, "\(extra)")
            #expect(
                outcome.stderr.contains("--rejects \(store) is the store"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("nothing was read or written"))
            #expect(bytes(store) == before, "\(extra)")
        }
    }

    @Test func testTheStoresCompanionsAndTheInputAreRefused() throws {
        let inputBefore = bytes(input)
        for (path, role) in [
            (store + "-wal", "the store's wal file"), (store + "-shm", "the store's shm file"),
            (input, "the input"),
        ] {
            let outcome = try importSkipping(rejects: path, ["--force"])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("is \(role)"), "\(outcome.stderr)")
        }
        #expect(bytes(input) == inputBefore)
        // Through a link to the input, too.
        let link = folder.path("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
        let linked = try importSkipping(rejects: link, ["--force"])
        #expect(linked.status == 1)
        #expect(linked.stderr.contains("is the input"), "\(linked.stderr)")
        #expect(bytes(input) == inputBefore)
    }

    @Test func testAnExistingFileNeedsForceAndIsReplacedWholeAtTheEnd() throws {
        let rejects = folder.path("rejects.csv")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: rejects))
        let refused = try importSkipping(rejects: rejects)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("--rejects \(rejects) exists; not replacing it"),
            "\(refused.stderr)")
        #expect(bytes(rejects) == Data("keep me\n".utf8))
        #expect(try StrataRunner.run(["query", store, "Contact", "--count"]).stdout == "1\n")

        let forced = try importSkipping(rejects: rejects, ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let text = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(text.hasPrefix("first,last,score,strata_error\r\nLuca,Bianchi,lots,"))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!left.contains { $0.contains("strata-rejects") }, "\(left)")
    }

    @Test func testNoRejectedRecordAndDryRunWriteNoFile() throws {
        let rejects = folder.path("rejects.csv")
        let dry = try importSkipping(rejects: rejects, ["--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("1 rejected"), "\(dry.stdout)")
        #expect(!FileManager.default.fileExists(atPath: rejects))

        try Data("first,last\r\nMia,Koch\r\n".utf8).write(to: URL(fileURLWithPath: input))
        let clean = try importSkipping(rejects: rejects)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(!FileManager.default.fileExists(atPath: rejects))
    }

    @Test func testTheReasonsFileOfTxtInputIsCheckedToo() throws {
        let lines = folder.path("in.txt")
        try Data("Anna;Rossi\nLuca\n".utf8).write(to: URL(fileURLWithPath: lines))
        let rejects = folder.path("rejects.txt")
        try Data("old reasons\n".utf8).write(to: URL(fileURLWithPath: rejects + ".reasons.txt"))
        let outcome = try StrataRunner.run([
            "import", store, lines, "--format", "txt-lines", "--delimiter", ";",
            "--columns", "firstName,lastName", "--on-error", "skip", "--rejects", rejects,
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("rejects.txt.reasons.txt exists"), "\(outcome.stderr)")
        #expect(bytes(rejects + ".reasons.txt") == Data("old reasons\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: rejects))
    }

    @Test func testTheStoreAsInputIsNamedAsSuch() throws {
        let outcome = try StrataRunner.run(["import", store, store])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: \(store): cannot import: the input is the store itself; give the "
                + "file of records to import after the store; nothing was changed\n")
    }
}
