import StrataCore
import StrataSchema

/// Turns one element of a Day One `entries` array into a ``DayOneRecord``,
/// checking its shape: a known key holding the wrong JSON type, or a
/// well-shaped value that is wrong (a date that does not parse), marks the
/// entry invalid, to be reported with its uuid and skipped; the rest of the
/// export is imported.
struct DayOneRecordDecoder {
    /// Where the entry starts: the place of an error about a value the
    /// reader gave no position (it gives one to every value it reads).
    private let origin: SourcePosition

    /// Decodes `record`, an element of `entries`.
    static func decode(_ record: ImportRecord) throws(ImportError) -> DayOneRecord {
        try DayOneRecordDecoder(origin: record.position).decode(record)
    }

    private init(origin: SourcePosition) {
        self.origin = origin
    }

    private func decode(_ record: ImportRecord) throws(ImportError) -> DayOneRecord {
        var result = DayOneRecord(position: record.position)
        var extra: [RecordField] = []
        let known = Dictionary(DayOneField.entry.map { ($0.key, $0) }) { a, _ in a }
        for field in record.fields {
            do {
                try decode(field, known: known, into: &result, extra: &extra)
            } catch {
                // One entry of the wrong shape is that entry's problem: it is
                // reported with its uuid and skipped, the others imported.
                if result.invalidity == nil {
                    result.invalidity = "\(error.position.keyPath ?? field.key): \(error.message)"
                }
            }
        }
        if !extra.isEmpty { result.extra = .dictionary(extra) }
        if result.uuid == nil, result.invalidity == nil {
            result.invalidity = "the entry has no uuid"
        }
        if result.attributes["creationTime"] == nil, result.invalidity == nil {
            result.invalidity = "the entry has no creationDate"
        }
        return result
    }

    /// Decodes one member of an entry into `result`, or its unknown
    /// members into `extra`.
    private func decode(
        _ field: RecordField, known: [String: DayOneField], into result: inout DayOneRecord,
        extra: inout [RecordField]
    ) throws(ImportError) {
        if let mapped = known[field.key] {
            try read(
                field, as: mapped, into: &result.attributes, invalidity: &result.invalidity)
            return
        }
        switch field.key {
        case "tags":
            result.tags = try strings(field)
            // An explicit empty list is kept to be written back as it was:
            // the exporter writes `tags` itself only for an entry with tags.
            if result.tags.isEmpty {
                extra.append(RecordField(key: field.key, value: DayOneJSON.value(field.value)))
            }
        case "location", "weather":
            let fields = field.key == "location" ? DayOneField.location : DayOneField.weather
            let unknown = try object(
                field, fields: fields, into: &result.attributes,
                invalidity: &result.invalidity)
            if !unknown.isEmpty {
                extra.append(RecordField(key: field.key, value: .dictionary(unknown)))
            }
        default:
            if let kind = DayOneMediaKind.allCases.first(where: { $0.entryKey == field.key }) {
                result.media += try media(field, kind: kind, invalidity: &result.invalidity)
            } else {
                extra.append(RecordField(key: field.key, value: DayOneJSON.value(field.value)))
            }
        }
    }

    // MARK: - Values

    /// Reads a mapped key's value into `attributes` (null leaves it unset).
    private func read(
        _ field: RecordField, as mapped: DayOneField,
        into attributes: inout [String: AttributeValue],
        invalidity: inout String?
    ) throws(ImportError) {
        let value = field.value
        if value == .null { return }
        switch (mapped.kind, value) {
        case (.string, .text(let text)):
            attributes[mapped.attribute] = .string(text)
        case (.number, .integer(let number)):
            attributes[mapped.attribute] = .real(Double(number))
        case (.number, .real(let number)):
            attributes[mapped.attribute] = .real(number)
        case (.integer, .integer(let number)):
            attributes[mapped.attribute] = .integer(number)
        case (.integer, .real(let number)) where number == number.rounded() && abs(number) < 9e15:
            attributes[mapped.attribute] = .integer(Int64(number))
        case (.boolean, .boolean(let flag)):
            attributes[mapped.attribute] = .boolean(flag)
        case (.date, .text(let text)):
            if let seconds = ISO8601Date.seconds(from: text) {
                attributes[mapped.attribute] = .date(seconds)
            } else if invalidity == nil {
                invalidity =
                    "\(field.position?.keyPath ?? field.key) is not an ISO 8601 date-time: \"\(text.prefix(40))\""
            }
        default:
            throw wrongType(field, expected: Self.describe(mapped.kind))
        }
    }

    /// The unknown members of an object whose known keys are `fields`.
    private func object(
        _ field: RecordField, fields: [DayOneField],
        into attributes: inout [String: AttributeValue],
        invalidity: inout String?
    ) throws(ImportError) -> [RecordField] {
        if field.value == .null { return [] }
        guard case .dictionary(let members) = field.value else {
            throw wrongType(field, expected: "an object")
        }
        let known = Dictionary(fields.map { ($0.key, $0) }) { a, _ in a }
        var unknown: [RecordField] = []
        for member in members {
            if let mapped = known[member.key] {
                try read(member, as: mapped, into: &attributes, invalidity: &invalidity)
            } else {
                unknown.append(RecordField(key: member.key, value: DayOneJSON.value(member.value)))
            }
        }
        return unknown
    }

    /// The strings of an array of strings.
    private func strings(_ field: RecordField) throws(ImportError) -> [String] {
        if field.value == .null { return [] }
        guard case .array(let elements) = field.value else {
            throw wrongType(field, expected: "an array of strings")
        }
        var result: [String] = []
        for element in elements {
            guard case .text(let text) = element.value else {
                throw wrongType(element, expected: "a string")
            }
            result.append(text)
        }
        return result
    }

    /// The media of one of an entry's media arrays.
    private func media(
        _ field: RecordField, kind: DayOneMediaKind, invalidity: inout String?
    ) throws(ImportError) -> [DayOneMediumRecord] {
        if field.value == .null { return [] }
        guard case .array(let elements) = field.value else {
            throw wrongType(field, expected: "an array of objects")
        }
        var result: [DayOneMediumRecord] = []
        let known = Dictionary(DayOneField.medium.map { ($0.key, $0) }) { a, _ in a }
        for element in elements {
            guard case .dictionary(let members) = element.value else {
                throw wrongType(element, expected: "an object")
            }
            var medium = DayOneMediumRecord(kind: kind, position: element.position(or: origin))
            medium.attributes["type"] = .string(kind.mediumType)
            var unknown: [RecordField] = []
            for member in members {
                if let mapped = known[member.key] {
                    try read(member, as: mapped, into: &medium.attributes, invalidity: &invalidity)
                } else if member.key == kind.formatKey {
                    try read(
                        member, as: DayOneField(member.key, "format", .string),
                        into: &medium.attributes, invalidity: &invalidity)
                } else {
                    unknown.append(
                        RecordField(key: member.key, value: DayOneJSON.value(member.value)))
                }
            }
            if !unknown.isEmpty { medium.extra = .dictionary(unknown) }
            result.append(medium)
        }
        return result
    }

    private func wrongType(_ field: RecordField, expected: String) -> ImportError {
        ImportError(
            .structure, at: field.position(or: origin),
            "expected \(expected) for \"\(field.key)\", found \(field.value.kindDescription)")
    }

    private static func describe(_ kind: DayOneField.Kind) -> String {
        switch kind {
        case .string: "a string"
        case .number: "a number"
        case .integer: "a whole number"
        case .boolean: "true or false"
        case .date: "an ISO 8601 date-time string"
        }
    }
}
