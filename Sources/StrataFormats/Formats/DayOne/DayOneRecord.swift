import StrataCore
import StrataSchema

/// One Day One entry as read from the JSON, its values already in the
/// Diary's attribute types, before it is written.
struct DayOneRecord {
    /// `DiaryEntry` attribute values by name.
    var attributes: [String: AttributeValue] = [:]
    /// The tag names, in the entry's order.
    var tags: [String] = []
    /// The photos, recordings, videos and PDFs, in the JSON's order.
    var media: [DayOneMediumRecord] = []
    /// The keys the Diary has no attribute for (with `location` and
    /// `weather` members holding their own unknown keys), or nil.
    var extra: RecordValue?
    /// Where the entry starts (key path `entries[n]`).
    var position: SourcePosition
    /// Why the entry cannot be imported, when its values are well-shaped
    /// but wrong (a date that is not ISO 8601); nil when it is fine.
    var invalidity: String?

    /// The entry's uuid, for reports.
    var uuid: String? {
        if case .string(let uuid)? = attributes["uuid"] { return uuid }
        return nil
    }
}

/// One photo, recording, video or PDF of a ``DayOneRecord``.
struct DayOneMediumRecord {
    /// Which array it was in.
    var kind: DayOneMediaKind
    /// `Medium` attribute values by name (`type` included).
    var attributes: [String: AttributeValue] = [:]
    /// The keys the Diary has no attribute for, or nil.
    var extra: RecordValue?
    /// Where the medium's object starts.
    var position: SourcePosition

    /// The medium's md5 as written, if any.
    var md5: String? {
        if case .string(let md5)? = attributes["md5"] { return md5 }
        return nil
    }

    /// The medium's identifier, if any.
    var identifier: String? {
        if case .string(let identifier)? = attributes["identifier"] { return identifier }
        return nil
    }

    /// The medium's format as written (`jpeg`, `aac`), if any.
    var format: String? {
        if case .string(let format)? = attributes["format"] { return format }
        return nil
    }
}
