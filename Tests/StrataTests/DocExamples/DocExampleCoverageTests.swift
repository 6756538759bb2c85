import Foundation
import Testing

/// Every ```swift block of the README, the DocC articles and the doc
/// comments under `Sources/` must appear, line for line, in a Swift file
/// under `Tests/` (this folder keeps the copies no other test holds), so
/// that the test target compiles it. An example edited in the docs but not
/// in its compiled copy fails here, naming the block's file and line.
///
/// Lines are compared with their indentation and blank lines dropped, so
/// a copy may sit at any depth inside a test function.
struct DocExampleCoverageTests {
    /// The package's folder (this file is `Tests/StrataTests/DocExamples/…`).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func everySwiftBlockOfTheDocsIsInACompiledTestFile() throws {
        let blocks = try DocExampleBlocks.all(under: Self.root)
        #expect(blocks.count > 100, "the scan found too few blocks: \(blocks.count)")
        let compiled = try DocExampleBlocks.swiftFiles(
            under: Self.root.appendingPathComponent("Tests")
        ).map { try DocExampleBlocks.normalized(String(contentsOf: $0, encoding: .utf8)) }
        let missing = blocks.filter { block in
            !compiled.contains { DocExampleBlocks.contains($0, block.lines) }
        }
        let list = missing.map { "\($0.file):\($0.line)" }.joined(separator: "\n")
        #expect(
            missing.count == 0,
            """
            \(missing.count) doc example(s) not compiled by any test (copy each into \
            Tests/StrataTests/DocExamples):
            \(list)
            """)
    }

    /// Strata.md's Topics name every public type of the library.
    @Test func everyPublicTypeIsListedInTheTopicsOfStrataMd() throws {
        let topics = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/Strata/Strata.docc/Strata.md"),
            encoding: .utf8)
        let declaration =
            /^(?:@\w+ )*public (?:final )?(?:indirect )?(?:class|struct|enum|protocol|actor) (\w+)/
            .anchorsMatchLineEndings()
        var names: Set<String> = []
        // The library is its layer targets, Sources/Strata*; `strata` is the command.
        // StrataWeb is a product of its own, outside `Strata` (its README lists its types).
        let sources = Self.root.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { $0.hasPrefix("Strata") && $0 != "StrataWeb" }
        for target in targets {
            for url in try DocExampleBlocks.swiftFiles(
                under: sources.appendingPathComponent(target))
            {
                let text = try String(contentsOf: url, encoding: .utf8)
                for match in text.matches(of: declaration) { names.insert(String(match.1)) }
            }
        }
        #expect(names.count > 150)
        let unlisted = names.filter { !topics.contains("- ``\($0)``") }.sorted()
        #expect(unlisted == [], "public types missing from the Topics of Strata.md")
    }

    @Test func theScanFindsBlocksInArticlesReadmeAndDocComments() throws {
        let blocks = try DocExampleBlocks.all(under: Self.root)
        #expect(blocks.contains { $0.file == "README.md" })
        #expect(blocks.contains { $0.file.hasSuffix("ObjectContext.md") })
        #expect(blocks.contains { $0.file.hasSuffix("ManagedObject.swift") })
        let text = """
            /// ```swift
            /// let a = 1
            ///     print(a)
            /// ```
            let x = 2
            """
        let found = DocExampleBlocks.blocks(inDocComments: text, file: "X.swift")
        #expect(found.map(\.lines) == [["let a = 1", "print(a)"]])
        #expect(
            DocExampleBlocks.contains(["q", "let a = 1", "print(a)"], ["let a = 1", "print(a)"]))
        #expect(
            !DocExampleBlocks.contains(["let a = 1", "q", "print(a)"], ["let a = 1", "print(a)"]))
    }
}

/// The ```swift blocks of Markdown files and doc comments.
enum DocExampleBlocks {
    struct Block {
        /// The file, relative to the package folder.
        var file: String
        /// The line of the opening fence, from 1.
        var line: Int
        /// The block's lines, trimmed, without blank ones.
        var lines: [String]
    }

    /// The blocks of README.md, Sources/Strata/Strata.docc/*.md and the doc
    /// comments of every Swift file under Sources/ and Plugins/.
    static func all(under root: URL) throws -> [Block] {
        var found: [Block] = []
        let readme = root.appendingPathComponent("README.md")
        found += blocks(
            inMarkdown: try String(contentsOf: readme, encoding: .utf8), file: "README.md")
        let articles = root.appendingPathComponent("Sources/Strata/Strata.docc")
        for name in try FileManager.default.contentsOfDirectory(atPath: articles.path).sorted()
        where name.hasSuffix(".md") {
            let url = articles.appendingPathComponent(name)
            found += blocks(
                inMarkdown: try String(contentsOf: url, encoding: .utf8),
                file: "Sources/Strata/Strata.docc/\(name)")
        }
        for folder in ["Sources", "Plugins"] {
            for url in try swiftFiles(under: root.appendingPathComponent(folder)) {
                let relative = String(url.path.dropFirst(root.path.count + 1))
                found += blocks(
                    inDocComments: try String(contentsOf: url, encoding: .utf8), file: relative)
            }
        }
        return found
    }

    /// The Swift files under `folder` (none when it does not exist), sorted.
    static func swiftFiles(under folder: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    static func blocks(inMarkdown text: String, file: String) -> [Block] {
        blocks(lines: text.components(separatedBy: "\n").map { Optional($0) }, file: file)
    }

    /// Blocks in `///` comments; a line that is not a `///` comment ends
    /// any block.
    static func blocks(inDocComments text: String, file: String) -> [Block] {
        blocks(
            lines: text.components(separatedBy: "\n").map { line in
                let trimmed = line.drop { $0 == " " }
                guard trimmed.hasPrefix("///") else { return nil }
                let body = trimmed.dropFirst(3)
                return String(body.hasPrefix(" ") ? body.dropFirst() : body)
            }, file: file)
    }

    /// Blocks between a ```swift fence and the next ``` fence; nil lines
    /// break a block off.
    private static func blocks(lines: [String?], file: String) -> [Block] {
        var result: [Block] = []
        var current: Block?
        for (offset, line) in lines.enumerated() {
            guard let line else {
                current = nil
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed.hasPrefix("```swift") {
                    current = Block(file: file, line: offset + 1, lines: [])
                }
            } else if trimmed.hasPrefix("```") {
                if let block = current { result.append(block) }
                current = nil
            } else if !trimmed.isEmpty {
                current?.lines.append(trimmed)
            }
        }
        return result
    }

    /// The text's lines, trimmed, without blank ones.
    static func normalized(_ text: String) -> [String] {
        text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// Whether `lines` holds `block` as consecutive lines.
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard let first = block.first, lines.count >= block.count else { return block.isEmpty }
        for start in 0...(lines.count - block.count) where lines[start] == first {
            if Array(lines[start..<(start + block.count)]) == block { return true }
        }
        return false
    }
}
