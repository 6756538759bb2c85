import Foundation

/// What an import of the generated diary or recipes must leave in a store,
/// counted from the input itself (untimed, once per plan), so the checks do
/// not trust the importer's own counts.
///
/// The counting reads `gen.py`'s layout line by line: it is a census of that
/// generator's output, not a parser of the formats.
enum InputCensus {
    /// The expected contents of a diary import.
    struct Diary {
        /// Entries (`Date:` header lines).
        var entries = 0
        /// Distinct tag names.
        var tags = 0
        /// Links from entries to tags: each entry's distinct tags, summed.
        var links = 0
    }

    /// The expected contents of a recipes import.
    struct Recipes {
        /// Recipes (the dicts of the root array).
        var recipes = 0
        /// Ingredients (the dicts nested in the recipes).
        var ingredients = 0
        /// Distinct recipe types.
        var types = 0
    }

    /// Counts `diary.txt`: blocks of `Date:`, `Title:`, `Tags: a, b` header
    /// lines, then the body.
    ///
    /// - Throws: ``BenchError`` (`input`) when the file cannot be read.
    static func diary(_ file: URL) throws -> Diary {
        var census = Diary()
        var names = Set<String>()
        let reader = try LineReader(path: file.path)
        try reader.forEachLine { bytes, _ in
            guard bytes.starts(with: "Date: ".utf8) || bytes.starts(with: "Tags: ".utf8) else {
                return
            }
            let line = String(decoding: bytes, as: UTF8.self)
            if line.hasPrefix("Date: ") {
                census.entries += 1
                return
            }
            let tags = Set(
                line.dropFirst("Tags: ".count).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty })
            census.links += tags.count
            names.formUnion(tags)
        }
        census.tags = names.count
        return census
    }

    /// Counts `recipes.plist`: a root array of recipe dicts (one tab deep),
    /// each with an `ingredients` array of dicts (three tabs deep) and a
    /// `type` string on the line after its key.
    ///
    /// - Throws: ``BenchError`` (`input`) when the file cannot be read.
    static func recipes(_ file: URL) throws -> Recipes {
        var census = Recipes()
        var types = Set<String>()
        var typeFollows = false
        let reader = try LineReader(path: file.path)
        try reader.forEachLine { bytes, _ in
            let line = String(decoding: bytes, as: UTF8.self)
            if typeFollows {
                typeFollows = false
                types.insert(
                    line.trimmingCharacters(in: .whitespaces)
                        .replacingOccurrences(of: "<string>", with: "")
                        .replacingOccurrences(of: "</string>", with: ""))
            }
            switch line {
            case "\t<dict>": census.recipes += 1
            case "\t\t\t<dict>": census.ingredients += 1
            case "\t\t<key>type</key>": typeFollows = true
            default: break
            }
        }
        census.types = types.count
        return census
    }
}
