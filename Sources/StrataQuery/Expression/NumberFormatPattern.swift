/// The separators of a number format such as `#,##0.00` (grouping `,`,
/// decimal `.`) or `#.##0,00`, and the reading of the number a text starts
/// with under them.
///
/// With two kinds of separator, the one that comes last is the decimal
/// separator. With one kind, it is the grouping separator when exactly three
/// placeholders (`#` or `0`) follow its last use and a `#` comes before it
/// (`#,##0`), and the decimal separator otherwise (`0.00`, `0,5`).
struct NumberFormatPattern: Hashable, Sendable {
    /// The decimal separator.
    var decimal: Character
    /// The grouping separator, when the format has one.
    var grouping: Character?

    /// Decimal point, no grouping: how `number(text)` reads.
    static let plain = NumberFormatPattern(decimal: ".", grouping: nil)

    init(decimal: Character, grouping: Character?) {
        self.decimal = decimal
        self.grouping = grouping
    }

    /// The separators of `format`, or nil when it has none or more than two
    /// kinds.
    init?(_ format: String) {
        let characters = Array(format)
        var separators: [Character] = []
        for character in characters where character != "#" && character != "0" {
            if !separators.contains(character) { separators.append(character) }
        }
        guard let last = characters.lastIndex(where: { $0 != "#" && $0 != "0" }) else {
            return nil
        }
        switch separators.count {
        case 2:
            decimal = characters[last]
            grouping = separators.first { $0 != characters[last] }
        case 1:
            let separator = characters[last]
            let after = characters[(last + 1)...]
            if after.count == 3, characters[..<last].contains("#") {
                decimal = separator == "." ? "," : "."
                grouping = separator
            } else {
                decimal = separator
                grouping = nil
            }
        default:
            return nil
        }
    }

    /// The number at the start of `text` (after white space): an optional
    /// sign, digits with grouping separators between them, and a fraction
    /// after the decimal separator. `"20 min"` reads as 20, `"1,5 h"` under
    /// `#,##0.##`… as 1 (the comma groups), under `0,0` as 1.5.
    func leadingNumber(in text: String) -> Double? {
        let characters = Array(text)
        var index = 0
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        var literal = ""
        if index < characters.count, characters[index] == "-" || characters[index] == "+" {
            literal.append(characters[index])
            index += 1
        }
        func isDigit(_ position: Int) -> Bool {
            position < characters.count && characters[position].isASCII
                && characters[position].isNumber
        }
        var digits = 0
        while index < characters.count {
            if isDigit(index) {
                literal.append(characters[index])
                digits += 1
                index += 1
            } else if let grouping, characters[index] == grouping, digits > 0, isDigit(index + 1) {
                index += 1
            } else {
                break
            }
        }
        if index < characters.count, characters[index] == decimal, isDigit(index + 1) {
            literal.append(".")
            index += 1
            while isDigit(index) {
                literal.append(characters[index])
                digits += 1
                index += 1
            }
        }
        guard digits > 0, let value = Double(literal), value.isFinite else { return nil }
        return value
    }
}
