import Foundation
import StrataFormats

/// An attribute's bytes over HTTP: the content type sniffed from them
/// (``MediaType``), anything outside the allow-list as a download, and
/// one byte range when asked (`Range: bytes=…`), as `<audio>` and
/// `<video>` ask for.
enum MediaResponse {
    static func response(_ bytes: Data, type: MediaType, name: String, range: String?)
        -> HTTPResponse
    {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", type.contentType), ("Accept-Ranges", "bytes"),
            ("Cache-Control", "private, max-age=60"),
        ]
        if type.isDownload {
            headers.append(("Content-Disposition", "attachment; filename=\"\(name).bin\""))
        }
        guard let range else { return HTTPResponse(status: 200, headers: headers, body: bytes) }
        switch ByteRange.parse(range, length: bytes.count) {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: bytes)
        case .unsatisfiable:
            return HTTPResponse(
                status: 416, headers: headers + [("Content-Range", "bytes */\(bytes.count)")])
        case .range(let bounds):
            let start = bytes.startIndex + bounds.lowerBound
            let part = bytes[start..<(start + bounds.count)]
            return HTTPResponse(
                status: 206,
                headers: headers + [
                    (
                        "Content-Range",
                        "bytes \(bounds.lowerBound)-\(bounds.upperBound - 1)/\(bytes.count)"
                    )
                ], body: Data(part))
        }
    }
}

/// A `Range` header of one byte range (RFC 9110 §14.1.2): `bytes=0-99`,
/// `bytes=100-`, `bytes=-100`. Several ranges, or a unit other than bytes,
/// are answered with the whole body, as the RFC allows.
enum ByteRange: Equatable {
    /// Serve the whole body.
    case whole
    /// The bytes `lowerBound..<upperBound`.
    case range(Range<Int>)
    /// A range that starts past the end (416).
    case unsatisfiable

    static func parse(_ header: String, length: Int) -> ByteRange {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .whole }
        let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        func number(_ digits: String) -> Int? {
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            return Int(digits) ?? Int.max  // Too many digits: past any end.
        }
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .range(max(0, length - suffix)..<length)
        }
        guard let start = number(first) else { return .whole }
        guard start < length else { return .unsatisfiable }
        if last.isEmpty { return .range(start..<length) }
        guard let end = number(last), end >= start else { return .whole }
        return .range(start..<(min(end, length - 1) + 1))
    }
}
