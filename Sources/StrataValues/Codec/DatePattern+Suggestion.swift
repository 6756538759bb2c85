import Foundation

// MARK: - Patterns guessed from a value's shape

extension DatePattern {
    /// The patterns that read `bytes`, guessed from its shape (runs of
    /// digits and the separators between them), for an error to propose:
    /// `2010/01/01 00:00` gives `yyyy/MM/dd HH:mm`.
    ///
    /// A four-digit year comes first or last. Day and month are ordered as
    /// the value allows (`25` is no month); when both orders fit, both are
    /// returned, month first. A time may follow after a space or `T`:
    /// `HH:mm`, `:ss`, a fraction, `AM`/`PM`, then `Z` or an offset. Only
    /// patterns that read the value itself are returned (none for
    /// `2010/02/30`), so an empty result means no proposal.
    package static func suggestions(for bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        guard let shape = DateShape(bytes) else { return [] }
        var result: [String] = []
        for pattern in shape.patterns() where !result.contains(pattern) {
            guard let compiled = DatePattern(pattern, timeZone: .gmt) else { continue }
            if case .seconds = compiled.read(utf8: bytes) { result.append(pattern) }
        }
        return result
    }
}

/// A value cut into the pieces a date pattern is made of.
private struct DateShape {
    /// The three numbers of the date, each with its digits' count.
    var date: [(value: Int, digits: Int)] = []
    /// The separators after the first and the second number.
    var separators: [UInt8] = []
    /// The time's pattern (` HH:mm:ss a XXX`), from its separator on.
    var time = ""

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var cursor = 0
        func number() -> (value: Int, digits: Int)? {
            var value = 0
            let start = cursor
            while cursor < bytes.count, bytes[cursor] &- UInt8(ascii: "0") < 10,
                cursor - start < 4
            {
                value = value * 10 + Int(bytes[cursor] &- UInt8(ascii: "0"))
                cursor += 1
            }
            guard cursor > start else { return nil }
            return (value, cursor - start)
        }
        func next(_ byte: UInt8) -> Bool {
            guard cursor < bytes.count, bytes[cursor] == byte else { return false }
            cursor += 1
            return true
        }
        for position in 0..<3 {
            guard let part = number() else { return nil }
            date.append(part)
            if position < 2 {
                guard cursor < bytes.count,
                    [UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: " ")]
                        .contains(bytes[cursor])
                else { return nil }
                separators.append(bytes[cursor])
                cursor += 1
            }
        }
        guard cursor < bytes.count else { return }
        if next(UInt8(ascii: " ")) {
            time = " "
        } else if next(UInt8(ascii: "T")) {
            time = "'T'"
        } else {
            return nil
        }
        guard let hour = number(), hour.digits <= 2, next(UInt8(ascii: ":")),
            let minute = number(), minute.digits == 2
        else { return nil }
        var rest = ":mm"
        if next(UInt8(ascii: ":")) {
            guard let second = number(), second.digits == 2 else { return nil }
            rest += ":ss"
            if next(UInt8(ascii: ".")) {
                let start = cursor
                while cursor < bytes.count, bytes[cursor] &- UInt8(ascii: "0") < 10 { cursor += 1 }
                guard cursor > start, cursor - start <= 9 else { return nil }
                rest += "." + String(repeating: "S", count: cursor - start)
            }
        }
        var twelveHour = false
        if cursor + 3 <= bytes.count, bytes[cursor] == UInt8(ascii: " "),
            bytes[cursor + 1] == UInt8(ascii: "A") || bytes[cursor + 1] == UInt8(ascii: "P"),
            bytes[cursor + 2] == UInt8(ascii: "M")
        {
            twelveHour = true
            cursor += 3
            rest += " a"
        }
        if next(UInt8(ascii: "Z")) {
            rest += "XXX"
        } else if next(UInt8(ascii: "+")) || next(UInt8(ascii: "-")) {
            // `+01:30`, or `+0130` (read as one run of four digits).
            guard let hours = number() else { return nil }
            if hours.digits == 4 {
                rest += "Z"
            } else {
                guard hours.digits == 2, next(UInt8(ascii: ":")), let minutes = number(),
                    minutes.digits == 2
                else { return nil }
                rest += "XXX"
            }
        }
        guard cursor == bytes.count else { return nil }
        time += String(repeating: twelveHour ? "h" : "H", count: hour.digits) + rest
    }

    /// The patterns the shape allows, the likelier first.
    func patterns() -> [String] {
        func field(_ letter: String, _ part: (value: Int, digits: Int)) -> String {
            part.digits == 1 ? letter : letter + letter
        }
        let first = String(UnicodeScalar(separators[0]))
        let second = String(UnicodeScalar(separators[1]))
        var orders: [[String]] = []
        if date[0].digits == 4 {
            // Year first: year, month, day, unless only day then month fits.
            if date[1].value <= 12 {
                orders.append(["yyyy", field("M", date[1]), field("d", date[2])])
            } else if date[2].value <= 12 {
                orders.append(["yyyy", field("d", date[1]), field("M", date[2])])
            }
        } else if date[2].digits == 4 {
            if date[0].value <= 12 {
                orders.append([field("M", date[0]), field("d", date[1]), "yyyy"])
            }
            if date[1].value <= 12 {
                orders.append([field("d", date[0]), field("M", date[1]), "yyyy"])
            }
        }
        return orders.map { $0[0] + first + $0[1] + second + $0[2] + time }
    }
}
