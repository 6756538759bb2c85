/// Lays rows of text out in columns separated by two spaces.
///
/// Cells often hold data from a store, so each is shown through
/// ``TerminalText/escaped(_:)``: no control character reaches the terminal
/// and a tab or newline cannot break the columns.
enum TextTable {
    /// The rows as lines, each column padded to its widest cell; the last
    /// column is not padded.
    static func render(_ rows: [[String]], indent: String = "") -> String {
        let rows = rows.map { $0.map(TerminalText.escaped) }
        let columnCount = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columnCount)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            indent
                + row.enumerated().map { index, cell in
                    index == row.count - 1
                        ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
