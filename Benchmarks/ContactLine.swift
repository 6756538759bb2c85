import Foundation

/// The first three fields of a `contacts.txt` line
/// (`first;last;nick;email;birthday;score;notes`, written by `gen.py`).
struct ContactLine {
    /// `firstName`.
    var firstName: String
    /// `lastName`.
    var lastName: String
    /// `nickname`; an empty field is no nickname.
    var nickname: String?

    /// Splits one line on `;` and decodes its first three fields.
    ///
    /// - Parameters:
    ///   - bytes: The line, without its newline.
    ///   - line: Its number, for messages.
    ///   - path: The file, for messages.
    /// - Throws: ``BenchError`` (`input`) when the line has fewer than three
    ///   fields or a field is not UTF-8.
    init(_ bytes: UnsafeRawBufferPointer, line: Int, path: String) throws {
        var fields: [String] = []
        fields.reserveCapacity(3)
        var fieldStart = 0
        var index = 0
        while fields.count < 3 && index <= bytes.count {
            if index == bytes.count || bytes[index] == UInt8(ascii: ";") {
                let field = UnsafeRawBufferPointer(rebasing: bytes[fieldStart..<index])
                guard let text = ContactLine.utf8String(field) else {
                    throw BenchError(
                        .input, "\(path):\(line):\(fieldStart + 1): field is not valid UTF-8")
                }
                fields.append(text)
                fieldStart = index + 1
            }
            index += 1
        }
        guard fields.count == 3 else {
            throw BenchError(
                .input,
                "\(path):\(line): expected at least 3 fields separated by ';', "
                    + "found \(fields.count)")
        }
        firstName = fields[0]
        lastName = fields[1]
        nickname = fields[2].isEmpty ? nil : fields[2]
    }

    /// The UTF-8 text of `field`, or nil when it is not valid UTF-8.
    ///
    /// `String(decoding:as:)` is specialised and fast but repairs invalid
    /// bytes with U+FFFD; a repair shows as a changed length or a U+FFFD the
    /// input did not spell out (EF BF BD).
    static func utf8String(_ field: UnsafeRawBufferPointer) -> String? {
        let bytes = field.bindMemory(to: UInt8.self)
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count else { return nil }
        if text.utf8.contains(0xEF), text.unicodeScalars.contains("\u{FFFD}") {
            let spelled = bytes.indices.dropLast(2).contains {
                bytes[$0] == 0xEF && bytes[$0 + 1] == 0xBF && bytes[$0 + 2] == 0xBD
            }
            guard spelled else { return nil }
        }
        return text
    }
}
