import Foundation
import Testing

@testable import Strata
@testable import StrataStore

/// Resolving a store path given as a symbolic link (issue 27, point 2).
struct StorePathTests {
    @Test func testALinkResolvesToItsTargetAndAFileToItself() throws {
        let directory = try TemporaryDirectory()
        let real = directory.file("real.sqlite")
        try Data("x".utf8).write(to: real)
        let link = directory.file("link.sqlite")
        let chained = directory.file("chained.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: "real.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: chained.path, withDestinationPath: link.path)
        #expect(try StorePath.resolve(link).path == real.path)
        #expect(try StorePath.resolve(chained).path == real.path)
        #expect(try StorePath.resolve(real) == real)
        let missing = directory.file("missing.sqlite")
        #expect(try StorePath.resolve(missing) == missing)
        // The lock of the link is the lock of the real file.
        #expect(StoreLock.path(for: link) == StoreLock.path(for: real))
    }

    @Test func testALoopAndALinkToNothingAreRefused() throws {
        let directory = try TemporaryDirectory()
        let a = directory.file("a.sqlite")
        let b = directory.file("b.sqlite")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: b.path)
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: a.path)
        #expect(throws: StoreError.self) { try StorePath.resolve(a) }
        let dangling = directory.file("dangling.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: dangling.path, withDestinationPath: directory.file("nothing").path)
        #expect(throws: StoreError.self) { try StorePath.resolve(dangling) }
    }
}
