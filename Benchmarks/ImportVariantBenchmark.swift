import Foundation
import Strata

/// The slow paths of `strata import` against its plain path, in the same
/// run (issue 28, point 7): the corpus's contacts imported into a fresh
/// store with an option that costs extra, against the plain `strata import
/// contacts.csv` (the `import-csv` Strata side) into another.
///
/// - `mapping`: `--mapping contacts.mapping.json`, a mapping of simple
///   conversions — a field renamed, a field copied by expression, a cast
///   (`string`, `number`), a concatenation giving the email
///   (`concatenate(nick, "@example.org")`, the corpus's own). Target: at most
///   1.5x the plain import.
/// - `dateformat`: `contacts-slashed.csv`, the same file with every birthday
///   written `yyyy/MM/dd` (derived once, untimed, beside the corpus), read
///   with `--date-format yyyy/MM/dd` against the ISO 8601 dates of the
///   plain import. Target: at most 2.0x.
///
/// Both sides are checked as `import-csv` checks its Strata side; after the
/// first round the two stores must hold the same contacts, every attribute.
struct ImportVariantBenchmark: Benchmark {
    /// Which slow path.
    enum Kind: String, Sendable, CaseIterable { case mapping, dateformat }

    let kind: Kind
    var name: String { "import-csv-\(kind.rawValue)" }
    var summary: String {
        switch kind {
        case .mapping: "strata import --mapping (simple conversions) vs plain (issue 28)"
        case .dateformat: "strata import --date-format yyyy/MM/dd vs ISO 8601 dates (issue 28)"
        }
    }
    let defaultRows = 1_000_000

    /// The mapping of the `mapping` side.
    static let mapping = """
        {
          "format": "strata-import/1",
          "entity": "Contact",
          "fields": { "first": "firstName" },
          "compute": {
            "lastName": "last",
            "nickname": "string(nick)",
            "email": "concatenate(nick, \\"@example.org\\")",
            "score": "number(score)",
            "notes": "notes"
          }
        }
        """

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let corpus = environment.corpus
        let plain = try ContactImport(
            corpus: corpus, input: .csv,
            store: environment.workspace.appendingPathComponent("plain.sqlite"),
            environment: environment)
        let variant: ContactImport
        let title: String
        switch kind {
        case .mapping:
            let file = environment.workspace.appendingPathComponent("contacts.mapping.json")
            try Data(Self.mapping.utf8).write(to: file)
            variant = try ContactImport(
                corpus: corpus, input: .csv,
                store: environment.workspace.appendingPathComponent("strata.sqlite"),
                environment: environment, extraArguments: ["--mapping", file.path])
            title = "strata import --mapping"
        case .dateformat:
            let slashed = try Self.slashedCSV(of: corpus)
            variant = try ContactImport(
                corpus: corpus, input: .csv,
                store: environment.workspace.appendingPathComponent("strata.sqlite"),
                environment: environment, file: slashed,
                extraArguments: ["--date-format", "yyyy/MM/dd"])
            title = "strata import --date-format"
        }
        return BenchPlan(
            strata: variant.contender(title: title),
            peer: plain.contender(title: "strata import (plain, ISO dates)"),
            compare: { try variant.verifySame(asStore: plain) },
            targets: [
                BenchTarget(figure: .time(against: 1), limit: kind == .mapping ? 1.5 : 2.0),
                BenchTarget(figure: .peakMegabytes(of: 0), limit: 64, inclusive: false),
            ])
    }

    /// `contacts-slashed.csv` beside the corpus's CSV: every `,yyyy-MM-dd,`
    /// field written `,yyyy/MM/dd,` (only birthdays have that shape), made
    /// once through a temporary file renamed into place.
    ///
    /// - Throws: ``BenchError`` (`setup`) when the file cannot be written.
    static func slashedCSV(of corpus: Corpus) throws -> URL {
        let target = corpus.directory.appendingPathComponent("contacts-slashed.csv")
        if FileManager.default.fileExists(atPath: target.path) { return target }
        log("import-csv-dateformat: deriving \(target.lastPathComponent) (once)")
        guard var bytes = FileManager.default.contents(atPath: corpus.contactsCSV.path) else {
            throw BenchError(.setup, "cannot read \(corpus.contactsCSV.path)")
        }
        bytes.withUnsafeMutableBytes { raw in
            let count = raw.count
            func isDigit(_ at: Int) -> Bool { raw[at] &- UInt8(ascii: "0") < 10 }
            var index = 0
            while index + 11 < count {
                if raw[index] == UInt8(ascii: ","), raw[index + 5] == UInt8(ascii: "-"),
                    raw[index + 8] == UInt8(ascii: "-"), raw[index + 11] == UInt8(ascii: ","),
                    [1, 2, 3, 4, 6, 7, 9, 10].allSatisfy({ isDigit(index + $0) })
                {
                    raw[index + 5] = UInt8(ascii: "/")
                    raw[index + 8] = UInt8(ascii: "/")
                    index += 11
                } else {
                    index += 1
                }
            }
        }
        let temporary = target.appendingPathExtension("partial")
        do {
            try bytes.write(to: temporary)
            try FileManager.default.moveItem(at: temporary, to: target)
        } catch {
            throw BenchError(.setup, "cannot write \(target.path): \(error)")
        }
        return target
    }
}
