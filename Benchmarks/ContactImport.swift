import Foundation
import Strata

/// The Strata side of the contact import benchmarks: `strata import` of the
/// corpus's contacts (`contacts.csv`, or `contacts.txt` as txt lines) into a
/// fresh store of the newest `Schemas/Contacts`, and the checks made after.
struct ContactImport {
    /// The input's shape.
    enum Input {
        /// `contacts.csv`, with its header; the format is guessed from the
        /// extension and the fields mapped through the schema's `importKeys`.
        case csv
        /// `contacts.txt`: `;`-separated lines without a header, the fields
        /// named by position.
        case txtLines
    }

    /// The attributes of `Contact`, in the corpus's column order.
    static let attributes = [
        "firstName", "lastName", "nickname", "email", "birthday", "score", "notes",
    ]

    /// The store written.
    let store: ImportStore
    /// The file imported.
    let file: URL
    /// Its shape.
    let input: Input
    /// The contacts in it.
    let rows: Int
    /// The `strata` executable.
    let strata: String
    /// Options added to the command (`--mapping`, `--date-format`).
    let extraArguments: [String]

    /// Prepares the import of `corpus`'s contacts into a store at `url`.
    ///
    /// - Throws: ``BenchError`` (`setup`) when `strata` is not built or the
    ///   schema lacks what the checks need.
    ///
    /// `file` replaces the corpus's file (a CSV derived from it), and
    /// `extraArguments` are added to the command.
    init(
        corpus: Corpus, input: Input, store url: URL, environment: BenchEnvironment,
        file: URL? = nil, extraArguments: [String] = []
    ) throws {
        store = try ImportStore(
            url: url,
            schemas: environment.packageRoot.appendingPathComponent(
                "Schemas/Contacts", isDirectory: true))
        for attribute in Self.attributes { _ = try store.column(attribute, of: "Contact") }
        self.file = file ?? (input == .csv ? corpus.contactsCSV : corpus.contactsText)
        self.extraArguments = extraArguments
        self.input = input
        rows = corpus.rows
        strata = try StrataProgram.locate(besides: environment.executable)
    }

    /// The `strata import` arguments.
    var arguments: [String] {
        var arguments = [
            "import", store.url.path, file.path, "--entity", "Contact", "--schemas",
            store.schemas.path,
        ]
        if input == .txtLines {
            arguments += [
                "--format", "txt-lines", "--delimiter", ";", "--columns",
                Self.attributes.joined(separator: ","),
            ]
        }
        return arguments + extraArguments
    }

    /// The side: a fresh store before each run, then `strata import`.
    func contender(title: String? = nil, side: String? = nil) -> Contender {
        Contender(
            title: title ?? "strata import \(file.lastPathComponent)",
            prepareRun: {
                try store.recreate()
                return ChildCommand(executable: strata, arguments: arguments)
            },
            verify: verify, inputBytes: Corpus.size(of: file), side: side)
    }

    /// Checks the store: `rows` contacts, `Z_MAX` to match, every email,
    /// birthday and score set, the dates and numbers stored as numbers, and
    /// SQLite finds the file sound.
    ///
    /// - Throws: ``BenchError`` (`verification`).
    func verify() throws {
        let contact = try store.entity("Contact")
        let email = try store.column("email", of: "Contact")
        let birthday = try store.column("birthday", of: "Contact")
        let score = try store.column("score", of: "Contact")
        try store.verify(counts: ["Contact": rows]) { connection in
            for column in [email, birthday, score] {
                try store.expect(
                    connection, "SELECT count(\(column)) FROM \(contact.tableName)",
                    equals: rows, "non-null \(column)")
            }
            try store.expect(
                connection,
                "SELECT count(*) FROM \(contact.tableName) WHERE typeof(\(birthday)) "
                    + "NOT IN ('real', 'integer') OR typeof(\(score)) NOT IN ('real', 'integer')",
                equals: 0, "birthdays or scores not stored as numbers")
        }
    }

    /// Checks that the store holds the same contacts as the `sqlite3` shell's
    /// plain table of the same input (whose columns are the CSV header's,
    /// all text): the strings equal, each birthday the same day (Core Data
    /// stores seconds since 2001, 978,307,200 after 1970) and each score the
    /// same to its three decimals.
    ///
    /// - Throws: ``BenchError`` (`verification`) with the number of rows
    ///   that differ.
    func verifySame(as peer: PlainTable) throws {
        let columns = try Self.attributes.map { try store.column($0, of: "Contact") }
        let contact = try store.entity("Contact")
        let strataRow = [
            columns[0], columns[1], columns[2], columns[3],
            "date(\(columns[4]) + 978307200, 'unixepoch')", "printf('%.3f', \(columns[5]))",
            columns[6],
        ].joined(separator: ", ")
        let peerRow = "first, last, nick, email, birthday, score, notes"
        let connection = try Connection(path: store.url.path, mode: .readOnly)
        defer { try? connection.close() }  // Read-only; nothing to lose on close.
        try connection.execute("ATTACH DATABASE ? AS peer", [.text(peer.url.path)])
        let strataRows = "SELECT \(strataRow) FROM main.\(contact.tableName)"
        let peerRows = "SELECT \(peerRow) FROM peer.\(peer.table)"
        try store.expect(
            connection,
            """
            SELECT (SELECT count(*) FROM (\(strataRows) EXCEPT \(peerRows)))
                 + (SELECT count(*) FROM (\(peerRows) EXCEPT \(strataRows)))
            """, equals: 0, "rows that differ from \(peer.url.lastPathComponent)'s")
    }

    /// Checks that the store holds the same contacts, every attribute, as
    /// `other`'s store (two Strata imports of the same rows).
    ///
    /// - Throws: ``BenchError`` (`verification`) with the number of rows
    ///   that differ.
    func verifySame(asStore other: ContactImport) throws {
        let columns = try Self.attributes.map { try store.column($0, of: "Contact") }
        let table = try store.entity("Contact").tableName
        let row = "SELECT \(columns.joined(separator: ", ")) FROM"
        let connection = try Connection(path: store.url.path, mode: .readOnly)
        defer { try? connection.close() }  // Read-only; nothing to lose on close.
        try connection.execute("ATTACH DATABASE ? AS other", [.text(other.store.url.path)])
        try store.expect(
            connection,
            """
            SELECT (SELECT count(*) FROM (\(row) main.\(table) EXCEPT \(row) other.\(table)))
                 + (SELECT count(*) FROM (\(row) other.\(table) EXCEPT \(row) main.\(table)))
            """, equals: 0, "rows that differ from \(other.store.url.lastPathComponent)'s")
    }
}
