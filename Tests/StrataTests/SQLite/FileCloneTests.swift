import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// ``FileClone``: every method, and the order it falls back in, makes an
/// identical copy. On ext4 (this machine's disk) `FICLONE` is refused, so
/// only its fallback can be seen here; on btrfs or XFS the same test sees
/// the clone itself.
struct FileCloneTests {
    /// 2 MiB and a bit of varied bytes: more than one read buffer.
    private func makeSource(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("source.bin")
        let bytes = (0..<(2 << 20) + 4321).map {
            UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7)
        }
        try Data(bytes).write(to: url)
        chmod(url.path, 0o640)
        return url
    }

    @Test func testEveryMethodMakesAnIdenticalCopyWithTheSourcesPermissions() throws {
        let directory = try TemporaryDirectory()
        let source = try makeSource(in: directory)
        for first in FileClone.Method.allCases {
            let target = directory.file("copy-\(first.rawValue).bin")
            let used = try FileClone.copy(from: source.path, to: target.path, trying: first)
            #expect(used >= first, "\(first)")
            #expect(try Data(contentsOf: target) == Data(contentsOf: source), "\(first)")
            let mode = try FileManager.default.attributesOfItem(atPath: target.path)[
                .posixPermissions]
            #expect((mode as? NSNumber)?.intValue == 0o640, "\(first)")
        }
    }

    @Test func testTheDefaultOrderClonesOrFallsBackToTheKernelsCopy() throws {
        let directory = try TemporaryDirectory()
        let source = try makeSource(in: directory)
        let target = directory.file("copy.bin")
        let used = try FileClone.copy(from: source.path, to: target.path)
        // btrfs and XFS clone; ext4 and tmpfs refuse FICLONE and copy in the
        // kernel; only a kernel without copy_file_range reads and writes.
        #expect(used == .clone || used == .kernelCopy)
        #expect(try Data(contentsOf: target) == Data(contentsOf: source))
    }

    @Test func testAnEmptyFileIsCopied() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("empty.bin")
        try Data().write(to: source)
        for first in FileClone.Method.allCases {
            let target = directory.file("copy-\(first.rawValue).bin")
            try FileClone.copy(from: source.path, to: target.path, trying: first)
            #expect(try Data(contentsOf: target).isEmpty)
        }
    }

    @Test func testAnExistingDestinationIsRefusedAndKept() throws {
        let directory = try TemporaryDirectory()
        let source = try makeSource(in: directory)
        let target = directory.file("taken.bin")
        try Data("keep".utf8).write(to: target)
        #expect(throws: CocoaError.self) {
            try FileClone.copy(from: source.path, to: target.path)
        }
        #expect(try Data(contentsOf: target) == Data("keep".utf8))
    }

    @Test func testAMissingSourceIsNamedAndNothingIsCreated() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("copy.bin")
        do {
            try FileClone.copy(from: directory.file("missing.bin").path, to: target.path)
            Issue.record("copying a missing file should fail")
        } catch {
            #expect(
                "\(error)".contains("missing.bin")
                    || error.localizedDescription.contains("missing.bin"))
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
