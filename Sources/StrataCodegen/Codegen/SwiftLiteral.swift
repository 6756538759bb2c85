import Foundation

/// Swift source for literal values in generated code.
enum SwiftLiteral {
    /// `text` as a Swift string literal.
    package static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `text` as a raw multi-line string literal (`#"""…"""#`, with more
    /// `#` than any run in the text), its lines at `indent`.
    static func rawString(_ text: String, indent: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "#" ? run + 1 : 0
            longest = max(longest, run)
        }
        let hashes = String(repeating: "#", count: longest + 1)
        let text = text.hasSuffix("\n") ? String(text.dropLast()) : text
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "" : indent + $0
        }
        return ([indent + hashes + "\"\"\""] + body + [indent + "\"\"\"" + hashes])
            .joined(separator: "\n")
    }

    /// A double as a Swift literal (finite values only; others read as 0).
    static func double(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// `text` as doc comment lines at `indent`.
    static func docLines(_ text: String, indent: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map {
            let line = $0.trimmingCharacters(in: .whitespaces)
            return line.isEmpty ? "\(indent)///" : "\(indent)/// \(line)"
        }
    }
}
