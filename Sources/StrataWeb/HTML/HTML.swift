import StrataCore

/// HTML text made safe: every value, name and message from a store, a
/// model or a request reaches a page through ``escape(_:)``, so a title
/// `<script>alert(1)</script>` shows as text.
enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by their entities:
    /// safe as element content and as a quoted attribute value.
    static func escape(_ text: some StringProtocol) -> String { XMLText.escaped(text) }

    /// `text` percent-encoded for one path segment or query value of a
    /// URL: everything but unreserved ASCII (RFC 3986) is encoded.
    static func percentEncode(_ text: some StringProtocol) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(digits[Int(byte >> 4)])
                encoded.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return encoded
    }

    /// A link: `<a href="url">text</a>`, both escaped.
    static func link(_ url: String, _ text: String, class name: String? = nil) -> String {
        let classAttribute = name.map { " class=\"\($0)\"" } ?? ""
        return "<a href=\"\(escape(url))\"\(classAttribute)>\(escape(text))</a>"
    }
}
