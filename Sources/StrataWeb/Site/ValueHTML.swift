import Foundation
import StrataCore
import StrataFormats
import StrataQuery
import StrataSchema

/// An attribute's value as HTML, by its type: text escaped, dates in ISO
/// 8601 (UTC) and in the machine's local time, numbers exact, booleans,
/// UUIDs, URIs, transformables decoded from their keyed archive to JSON,
/// and binary values as media or a download with their size and SHA-256.
enum ValueHTML {
    /// The longest text a table cell shows before cutting it.
    static let cellLength = 80

    /// A short form for a table cell.
    static func cell(_ value: AttributeValue?, attribute: Attribute) -> String {
        guard let value else { return "<span class=\"null\">nil</span>" }
        switch (attribute.type, value) {
        case (.binary, .data(let bytes)), (.transformable, .data(let bytes)):
            let type = MediaType.sniff(bytes)
            let kind = type.isDownload ? "" : "\(type.fileExtension.uppercased()), "
            return "<span class=\"muted\">\(kind)\(ByteCount.format(Int64(bytes.count)))</span>"
        default:
            // The first line: a table row stays one line high.
            let whole = plainText(value, attribute: attribute)
            let lines = whole.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            let text = lines.count > 1 ? String(lines[0]) + " …" : whole
            let shown =
                text.count > cellLength ? String(text.prefix(cellLength)) + "…" : text
            return HTML.escape(shown)
        }
    }

    /// The full form for an object's page; binary values through `media`,
    /// which gives the link to the bytes once their type is known.
    static func full(
        _ value: AttributeValue?, attribute: Attribute, media: (MediaType) -> String
    ) -> String {
        guard let value else { return "<span class=\"null\">nil</span>" }
        switch (attribute.type, value) {
        case (.date, .date(let seconds)):
            return HTML.escape(dateText(seconds))
                + "<br><span class=\"muted\">\(HTML.escape(localDateText(seconds)))</span>"
        case (.uri, .string(let text)):
            // Only web links are links: a javascript: or file: URI stays text.
            if let scheme = text.split(separator: ":").first?.lowercased(),
                scheme == "http" || scheme == "https"
            {
                return "<a href=\"\(HTML.escape(text))\" rel=\"noopener noreferrer nofollow\">"
                    + "\(HTML.escape(text))</a>"
            }
            return HTML.escape(text)
        case (.transformable, .data(let bytes)):
            if let decoded = try? RecordValue(archive: bytes) {
                return "<pre>\(HTML.escape(decoded.jsonText(pretty: true)))</pre>"
                    + "<span class=\"muted\">decoded from its keyed archive, "
                    + "\(ByteCount.format(Int64(bytes.count)))</span>"
            }
            return binary(bytes, media: media)
        case (.binary, .data(let bytes)):
            return binary(bytes, media: media)
        default:
            return HTML.escape(plainText(value, attribute: attribute))
        }
    }

    /// A binary value: shown inline when a browser can (pictures, sounds,
    /// films), else a download; with its size and SHA-256 either way.
    static func binary(_ bytes: Data, media: (MediaType) -> String) -> String {
        let type = MediaType.sniff(bytes)
        let link = HTML.escape(media(type))
        let facts =
            "<span class=\"muted\">\(type.isDownload ? "bytes" : type.contentType), "
            + "\(ByteCount.format(Int64(bytes.count))), SHA-256 \(SHA256.hex(SHA256.hash(bytes)))</span>"
        switch type.presentation {
        case .image:
            return "<figure><a href=\"\(link)\"><img class=\"media\" src=\"\(link)\" alt=\"\">"
                + "</a><figcaption>\(facts)</figcaption></figure>"
        case .audio:
            return "<audio controls preload=\"metadata\" src=\"\(link)\"></audio><br>\(facts)"
        case .video:
            return "<video controls preload=\"metadata\" src=\"\(link)\"></video><br>\(facts)"
        case .download:
            return "<a href=\"\(link)\" download>download</a> \(facts)"
        }
    }

    /// The value as plain text (not escaped).
    static func plainText(_ value: AttributeValue, attribute: Attribute) -> String {
        switch value {
        case .integer(let number):
            return attribute.type == .boolean ? (number != 0 ? "true" : "false") : String(number)
        case .real(let number):
            // Swift's shortest text that reads back as the same double.
            return number == number.rounded() && abs(number) < 1e15
                ? String(Int64(number)) : String(number)
        case .string(let text): return text
        case .boolean(let flag): return flag ? "true" : "false"
        case .date(let seconds): return dateText(seconds)
        case .data(let bytes): return ByteCount.format(Int64(bytes.count))
        case .uuid(let uuid): return uuid.uuidString
        }
    }

    /// A Core Data date (seconds since 2001) as ISO 8601 in UTC, exact.
    static func dateText(_ seconds: Double) -> String {
        ISO8601Date.string(from: seconds) ?? String(seconds)
    }

    /// The same moment in this machine's time zone (`TZ`), to the second,
    /// with its offset: `2026-06-06 14:00:00 +02:00`.
    static func localDateText(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 2e11 else { return "" }
        var unix = time_t(Int64(seconds.rounded(.down)) + 978_307_200)
        var parts = tm()
        guard localtime_r(&unix, &parts) != nil else { return "" }
        let offset = Int64(parts.tm_gmtoff)
        var bytes: [UInt8] = []
        _ = ISO8601Date.appendDateTime(unixSeconds: Int64(unix) + offset, to: &bytes)
        if let t = bytes.firstIndex(of: UInt8(ascii: "T")) { bytes[t] = UInt8(ascii: " ") }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : String(n) }
        return String(decoding: bytes, as: UTF8.self)
            + " \(sign)\(two(minutes / 60)):\(two(minutes % 60)) local time"
    }
}
