import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

/// String comparisons over accented text: every operator with every option,
/// compiled to SQL (the folding SQL functions and their ASCII fast path)
/// and evaluated in memory, select the same objects of a generated corpus
/// of words with diacritics in both Unicode forms, ligatures, ß, final
/// sigma and dotted capitals (issue 32: the fold semantics stay those of
/// the evaluator).
struct PredicateAccentedCorpusTests {
    static let words = [
        "walk", "Vögel", "VÖGEL", "vogel", "Straße", "STRASSE", "strasse", "café",
        "cafe\u{301}", "CAFÉ", "naïve", "Ærø", "aero", "señor", "SENOR", "Über", "uber", "crème",
        "ﬁlm", "film", "İstanbul", "istanbul", "ΣΊΣΥΦΟΣ", "σίσυφος", "Ångström", "angstrom",
        "RiverBank", "e\u{301}", "x",
    ]

    static let needles = [
        "vogel", "VÖGEL", "strasse", "straße", "cafe", "café", "cafe\u{301}", "uber", "ÜBER",
        "ærø", "film", "ﬁ", "istanbul", "i̇stanbul", "σισυφος", "ΣΊΣΥΦΟΣ", "angstrom", "é",
        "e", "riverbank", "x", "",
    ]

    /// A store of notes whose bodies are three words of ``words``, drawn
    /// deterministically; its context and every note.
    private func corpus(
        in folder: TemporaryDirectory
    ) throws -> (Store, Context, [ManagedObject]) {
        let model = try SchemaDecoder().decode(
            """
            {"format": "strata-schema/1", "model": "Accents", "version": 1,
             "entities": {"Note": {"attributes": {"body": {"type": "string"}}}}}
            """, file: "1.json")
        let store = try Store.create(at: folder.file("Accents.sqlite"), model: model)
        let context = try Context(store: store, model: model)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<400 {
            var body: [String] = []
            for _ in 0..<3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                body.append(Self.words[Int(state >> 33) % Self.words.count])
            }
            try context.insert("Note").set("body", body.joined(separator: " "))
        }
        try context.save()
        return (store, context, try context.findAll("Note"))
    }

    @Test func sqlAndMemorySelectTheSameNotesForEveryOperatorAndOption() throws {
        let folder = try TemporaryDirectory()
        let (store, context, notes) = try corpus(in: folder)
        defer { try? store.close() }
        let operators = ["CONTAINS", "BEGINSWITH", "ENDSWITH", "==", "LIKE"]
        var compared = 0
        var selected = 0
        for needle in Self.needles {
            for op in operators {
                for options in ["", "[c]", "[d]", "[cd]"] {
                    let argument = op == "LIKE" ? "*\(needle)*" : needle
                    let predicate = try FetchPredicate("body \(op)\(options) %@", argument)
                    let fetched = try context.fetch(
                        FetchRequest(entity: "Note", predicate: predicate))
                    let filtered = try context.filter(notes, with: predicate)
                    let label = "body \(op)\(options) '\(argument)'"
                    #expect(
                        Set(fetched.map(\.objectID)) == Set(filtered.map(\.objectID)), "\(label)")
                    compared += 1
                    selected += filtered.count
                }
            }
        }
        #expect(compared == Self.needles.count * 20)
        // Not a vacuous comparison: the folding cases select many notes.
        #expect(selected > 10_000)
        let folded = try FetchPredicate("body CONTAINS[cd] %@", "vogel")
        let plain = try FetchPredicate("body CONTAINS %@", "vogel")
        #expect(
            try context.filter(notes, with: folded).count
                > context.filter(notes, with: plain).count)
    }

    /// Swift holds "café" (é as one scalar) and "cafe\u{301}" equal; a fetch
    /// compares bytes, so a plan made for one must not serve the other.
    @Test func canonicallyEquivalentNeedlesGetTheirOwnPlans() throws {
        let folder = try TemporaryDirectory()
        let (store, context, _) = try corpus(in: folder)
        defer { try? store.close() }
        func bodies(_ needle: String) throws -> Set<String> {
            let predicate = try FetchPredicate("body CONTAINS %@", needle)
            return Set(
                try context.fetch(FetchRequest(entity: "Note", predicate: predicate)).map {
                    try $0.string("body") ?? ""
                }.map { String(decoding: Array($0.utf8), as: UTF8.self) })
        }
        let composed = try bodies("caf\u{E9}")
        let decomposed = try bodies("cafe\u{301}")
        #expect(!composed.isEmpty && !decomposed.isEmpty)
        #expect(composed.allSatisfy { $0.utf8.contains(0xC3) })
        #expect(decomposed.allSatisfy { $0.unicodeScalars.contains("\u{301}") })
    }
}
