import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Converts input values to an attribute's stored form, with explicit rules
/// per type (the ImportingData article lists them):
///
/// - integers: optional sign and decimal digits, exact, within the type's
///   range (`integer16` −32768…32767 and so on); no fraction, no exponent.
/// - decimals, doubles, floats: decimal numbers with optional exponent;
///   `nan` and infinities are refused; floats must fit a `Float`.
/// - booleans: `true/false/yes/no/1/0`, in any case.
/// - dates: ISO 8601 (`2024-05-01`, `2024-05-01T12:30:00Z`,
///   `…T12:30:00.250+02:00`); with a `dateFormat`, that pattern in the POSIX
///   locale and the import's time zone; with `unixDates`, seconds since 1970.
/// - binary and transformable: base64, or the path of a file relative to the
///   media folder (a value that is not valid base64 is taken as a path).
/// - uuids: the canonical 36-character text.
///
/// An empty unquoted field is no value; an empty quoted field is an empty
/// string for text and no value for every other type.
final class ValueCoercer {
    /// What went wrong, said about the value (the caller adds the place).
    struct Failure: Error {
        let code: ImportError.Code
        var message: String
        /// The attribute the failure is about, by index in the plan, when known.
        var attribute: Int?
        init(_ message: String, code: ImportError.Code = .invalidValue) {
            self.code = code
            self.message = message
        }
    }

    private let options: ImportOptions
    private let mediaFolder: URL
    private let dates: DateFieldReader
    /// The largest media file read into a binary attribute.
    static let maximumMediaBytes = 256 * 1024 * 1024

    init(options: ImportOptions, inputFile: String) {
        self.options = options
        self.mediaFolder =
            (options.mediaFolder
            ?? URL(fileURLWithPath: inputFile).deletingLastPathComponent()).standardizedFileURL
        self.dates = DateFieldReader(timeZone: options.timeZone)
    }

    // MARK: - Text fields

    /// The cell of a text field's UTF-8 `bytes` for `attribute`. String
    /// cells refer to `bytes` (``ImportCell/utf8(_:)``).
    ///
    /// Only the attribute's type is read on the way (a trivial value): the
    /// attribute itself is looked up for messages and rarer types.
    ///
    /// A cell that is one of the attribute's missing-value tokens
    /// (``ImportOptions/nulls``) is no value; a value that fails and is a
    /// common token says how to declare it one.
    func cell(
        utf8 bytes: UnsafeBufferPointer<UInt8>, quoted: Bool, index: Int, plan: EntityImportPlan
    ) throws(Failure) -> ImportCell {
        if let tokens = plan.nulls[index], tokens.matches(bytes) { return .null }
        do {
            return try convertedCell(utf8: bytes, quoted: quoted, index: index, plan: plan)
        } catch var failure {
            if let hint = MissingValueTokens.hint(for: bytes) {
                failure.message += "; \(hint)"
            }
            throw failure
        }
    }

    private func convertedCell(
        utf8 bytes: UnsafeBufferPointer<UInt8>, quoted: Bool, index: Int, plan: EntityImportPlan
    ) throws(Failure) -> ImportCell {
        let type = plan.types[index]
        if bytes.isEmpty {
            return quoted && (type == .string || type == .uri) ? .utf8(bytes) : .null
        }
        switch type {
        case .string, .uri:
            return .utf8(bytes)
        case .integer16, .integer32, .integer64:
            return .integer(try integer(bytes, type: type, index: index, plan: plan))
        case .boolean:
            return .integer(try boolean(bytes) ? 1 : 0)
        case .double, .decimal, .float:
            guard let value = Self.parseDouble(bytes) else {
                let attribute = plan.attributes[index]
                throw Failure(
                    "'\(Self.excerpt(bytes))' is not a number (\(attribute.name) is \(attribute.type.rawValue))"
                )
            }
            return .real(try checkReal(value, type: type))
        case .date:
            return .real(try date(bytes, format: plan.dateFormats[index]))
        case .uuid:
            let text = String(decoding: bytes, as: UTF8.self)
            guard let uuid = UUID(uuidString: text) else {
                throw Failure("'\(Self.excerpt(text))' is not a UUID")
            }
            return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .binary, .transformable:
            let bytes = try binary(String(decoding: bytes, as: UTF8.self))
            return .blob(
                plan.attributes[index].allowsExternalStorage
                    ? ExternalBinary.encodeInline(bytes) : bytes)
        }
    }

    // MARK: - Typed values

    /// The cell of a typed value from a plist or JSON for `attribute`.
    func cell(_ value: RecordValue, index: Int, plan: EntityImportPlan) throws(Failure)
        -> ImportCell
    {
        switch value {
        case .null:
            return .null
        case .text(var text) where plan.types[index] == .string || plan.types[index] == .uri:
            if let tokens = plan.nulls[index],
                text.withUTF8({ tokens.matches($0) })
            {
                return .null
            }
            // CSV and txt inputs refuse a NUL byte; a JSON `\u0000` or a
            // plist's NUL is refused alike, so no reader stores what
            // another would refuse when the value is exported again.
            if text.utf8.contains(0) {
                throw Failure(
                    "the text holds a NUL character (U+0000), which no text value may hold",
                    code: .encoding)
            }
            return .text(text)  // already a string: no second copy
        case .text(var text):
            let result = text.withUTF8 { bytes in
                Result { () throws(Failure) in
                    try self.cell(utf8: bytes, quoted: true, index: index, plan: plan).owned
                }
            }
            return try result.get()
        default:
            return try typedCell(value, for: plan.attributes[index])
        }
    }

    private func typedCell(_ value: RecordValue, for attribute: Attribute) throws(Failure)
        -> ImportCell
    {
        switch value {
        case .null, .text:
            return .null
        case .integer(let number):
            switch attribute.type {
            case .integer16, .integer32, .integer64:
                try checkRange(number, type: attribute.type)
                return .integer(number)
            case .double, .decimal, .float: return .real(Double(number))
            case .boolean:
                guard number == 0 || number == 1 else {
                    throw Failure("\(number) is not a boolean (0 or 1)")
                }
                return .integer(number)
            case .date where options.unixDates:
                return .real(Double(number) - Double(ISO8601Date.referenceOffset))
            case .string, .uri: return .text(String(number))
            default: throw mismatch("an integer", attribute)
            }
        case .unsignedInteger(let number):
            switch attribute.type {
            case .double, .decimal, .float: return .real(Double(number))
            case .string, .uri: return .text(String(number))
            case .integer16, .integer32, .integer64:
                throw Failure("\(number) is out of range for \(attribute.type.rawValue)")
            default: throw mismatch("an integer", attribute)
            }
        case .real(let number):
            switch attribute.type {
            case .double, .decimal, .float:
                return .real(try checkReal(number, type: attribute.type))
            case .integer16, .integer32, .integer64:
                guard let exact = Int64(exactly: number) else {
                    throw Failure(
                        "\(number) is not a whole number, as \(attribute.type.rawValue) needs")
                }
                try checkRange(exact, type: attribute.type)
                return .integer(exact)
            case .date where options.unixDates:
                return .real(number - Double(ISO8601Date.referenceOffset))
            case .string, .uri: return .text(String(number))
            default: throw mismatch("a number", attribute)
            }
        case .boolean(let flag):
            switch attribute.type {
            case .boolean, .integer16, .integer32, .integer64: return .integer(flag ? 1 : 0)
            default: throw mismatch("a boolean", attribute)
            }
        case .uid:
            throw mismatch("a keyed-archive reference", attribute)
        case .date(let date):
            switch attribute.type {
            case .date: return .real(date.timeIntervalSinceReferenceDate)
            case .string, .uri:
                return .text(ISO8601Date.string(from: date.timeIntervalSinceReferenceDate) ?? "")
            default: throw mismatch("a date", attribute)
            }
        case .data(let bytes):
            switch attribute.type {
            case .binary, .transformable:
                return .blob(
                    attribute.allowsExternalStorage ? ExternalBinary.encodeInline(bytes) : bytes)
            default: throw mismatch("data", attribute)
            }
        case .array, .set:
            throw mismatch("an array", attribute)
        case .dictionary:
            throw mismatch("a dictionary", attribute)
        }
    }

    private func mismatch(_ found: String, _ attribute: Attribute) -> Failure {
        Failure("found \(found), but \(attribute.name) is a \(attribute.type.rawValue)")
    }

    // MARK: - Rules per type

    private func integer(
        _ bytes: UnsafeBufferPointer<UInt8>, type: AttributeType, index: Int, plan: EntityImportPlan
    ) throws(Failure) -> Int64 {
        func notInteger() -> Failure {
            let attribute = plan.attributes[index]
            return Failure(
                "'\(Self.excerpt(bytes))' is not an integer (\(attribute.name) is \(attribute.type.rawValue))"
            )
        }
        func outOfRange() -> Failure {
            Failure("'\(Self.excerpt(bytes))' is out of range for \(type.rawValue)")
        }
        var cursor = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            cursor = 1
        }
        guard cursor < bytes.count else { throw notInteger() }
        // Accumulate negatively so that Int64.min is reachable.
        var value: Int64 = 0
        while cursor < bytes.count {
            let digit = bytes[cursor] &- UInt8(ascii: "0")
            guard digit < 10 else { throw notInteger() }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { throw outOfRange() }
            value = next
            cursor += 1
        }
        if !negative {
            guard value != .min else { throw outOfRange() }
            value = -value
        }
        try checkRange(value, type: type)
        return value
    }

    private func checkRange(_ value: Int64, type: AttributeType) throws(Failure) {
        let range: ClosedRange<Int64> =
            switch type {
            case .integer16: Int64(Int16.min)...Int64(Int16.max)
            case .integer32: Int64(Int32.min)...Int64(Int32.max)
            default: Int64.min...Int64.max
            }
        guard range.contains(value) else {
            throw Failure(
                "\(value) is out of range for \(type.rawValue) (\(range.lowerBound)…\(range.upperBound))"
            )
        }
    }

    private func boolean(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> Bool {
        if bytes.count <= 5 {
            var folded: UInt64 = 0
            for byte in bytes { folded = folded << 8 | UInt64(byte | 0x20) }
            switch folded {
            case 0x74_72_75_65, 0x79_65_73, 0x31: return true  // true, yes, 1
            case 0x66_61_6c_73_65, 0x6e_6f, 0x30: return false  // false, no, 0
            default: break
            }
        }
        throw Failure("'\(Self.excerpt(bytes))' is not a boolean (true/false, yes/no, 1/0)")
    }

    private func checkReal(_ value: Double, type: AttributeType) throws(Failure) -> Double {
        guard value.isFinite else {
            throw Failure("\(value) is not a finite number")
        }
        if type == .float, abs(value) > Double(Float.greatestFiniteMagnitude) {
            throw Failure("\(value) is too large for a float")
        }
        return value
    }

    /// A decimal number (`-12.5e3`) from ASCII bytes, or nil. Digits, one
    /// point and an exponent only: no `nan`, `inf`, hex or spaces.
    static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count < 64 else {
            let text = String(decoding: bytes, as: UTF8.self)
            return isDecimalNumber(bytes) ? Double(text) : nil
        }
        guard isDecimalNumber(bytes) else { return nil }
        if let exact = exactDecimal(bytes) { return exact }
        // strtod needs a terminated string; numbers are short.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            for index in 0..<bytes.count { buffer[index] = CChar(bitPattern: bytes[index]) }
            buffer[bytes.count] = 0
            guard let base = buffer.baseAddress else { return nil }
            return strtod(base, nil)
        }
    }

    /// Plain decimals (`-12.375`, no exponent) whose digits fit 2⁵³ and
    /// whose fraction has at most 22 digits: the digits and the power of ten
    /// are both exact doubles, so one division is correctly rounded, the
    /// same value `strtod` gives, without its general algorithm.
    private static func exactDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var digits: UInt64 = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }  // an exponent: the general path
                digits = digits &* 10 &+ UInt64(digit)
                guard digits < 1 << 53 else { return nil }
                if seenPoint { fractionDigits += 1 }
            }
            index += 1
        }
        guard fractionDigits <= 22 else { return nil }
        let value = Double(digits) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { power in
        (0..<power).reduce(1.0) { value, _ in value * 10 }
    }

    private static func isDecimalNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - start
        }
        if index < bytes.count,
            bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
        {
            index += 1
        }
        var count = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            count += digits()
        }
        guard count > 0 else { return false }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count,
                bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
            {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    private func date(
        _ bytes: UnsafeBufferPointer<UInt8>, format attributeFormat: String?
    ) throws(Failure) -> Double {
        if let format = attributeFormat ?? options.dateFormat {
            return try dates.seconds(bytes, format: format)
        }
        if options.unixDates {
            guard let seconds = Self.parseDouble(bytes), seconds.isFinite else {
                throw Failure("'\(Self.excerpt(bytes))' is not a number of seconds since 1970")
            }
            return seconds - Double(ISO8601Date.referenceOffset)
        }
        guard let seconds = ISO8601Date.seconds(utf8: bytes) else {
            throw DateFieldReader.notISO8601(bytes)
        }
        return seconds
    }

    /// Base64, or else the bytes of the file the text names inside the
    /// media folder.
    private func binary(_ text: String) throws(Failure) -> Data {
        if Self.looksLikeBase64(text),
            let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters)
        {
            return data
        }
        let target = mediaFolder.appendingPathComponent(text).standardizedFileURL
        let resolved = target.resolvingSymlinksInPath()
        let root = mediaFolder.resolvingSymlinksInPath().path
        guard !text.hasPrefix("/"), resolved.path.hasPrefix(root + "/") else {
            throw Failure(
                "'\(Self.excerpt(text))' is neither base64 nor a file inside \(mediaFolder.path)",
                code: .unsafePath)
        }
        let size = FileSystem.size(of: resolved.path)
        guard size <= Self.maximumMediaBytes else {
            throw Failure(
                "\(text) is \(size) bytes, more than a media file may have", code: .tooLarge)
        }
        guard let data = FileManager.default.contents(atPath: resolved.path) else {
            throw Failure("cannot read the media file \(text)", code: .unreadable)
        }
        return data
    }

    private static func looksLikeBase64(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                UInt8(ascii: "="):
                count += 1
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            default:
                return false
            }
        }
        return count % 4 == 0
    }

    /// At most 40 characters of `text`, for messages.
    static func excerpt(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    static func excerpt(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        excerpt(String(decoding: bytes.prefix(160), as: UTF8.self))
    }
}
