/// One key of Day One's JSON that maps to an attribute of the Diary: the
/// table both the importer and the exporter read, so the two directions
/// cannot drift apart (the DocC article "Day One" lists it).
struct DayOneField: Sendable {
    /// The JSON type the key holds.
    enum Kind: Sendable {
        /// A string.
        case string
        /// A number (an attribute of type double).
        case number
        /// A whole number (an integer attribute).
        case integer
        /// `true` or `false`.
        case boolean
        /// An ISO 8601 date-time string such as `2024-05-01T08:30:00Z`.
        case date
    }

    /// The key in Day One's object.
    let key: String
    /// The attribute in the Diary.
    let attribute: String
    /// The JSON type.
    let kind: Kind

    init(_ key: String, _ attribute: String, _ kind: Kind) {
        self.key = key
        self.attribute = attribute
        self.kind = kind
    }

    /// The keys of an entry that map to `DiaryEntry` attributes (besides
    /// `tags`, the media arrays, `location` and `weather`).
    static let entry = [
        DayOneField("uuid", "uuid", .string),
        DayOneField("creationDate", "creationTime", .date),
        DayOneField("modifiedDate", "modifiedDate", .date),
        DayOneField("timeZone", "timeZone", .string),
        DayOneField("text", "body", .string),
        DayOneField("richText", "richText", .string),
        DayOneField("starred", "starred", .boolean),
        DayOneField("isPinned", "pinned", .boolean),
        DayOneField("isAllDay", "allDay", .boolean),
    ]

    /// The keys of an entry's `location`.
    static let location = [
        DayOneField("placeName", "placeName", .string),
        DayOneField("localityName", "locality", .string),
        DayOneField("administrativeArea", "administrativeArea", .string),
        DayOneField("country", "country", .string),
        DayOneField("latitude", "latitude", .number),
        DayOneField("longitude", "longitude", .number),
        DayOneField("timeZoneName", "placeTimeZoneName", .string),
    ]

    /// The keys of an entry's `weather`.
    static let weather = [
        DayOneField("conditionsDescription", "weatherConditions", .string),
        DayOneField("weatherCode", "weatherCode", .string),
        DayOneField("temperatureCelsius", "temperatureCelsius", .number),
        DayOneField("relativeHumidity", "relativeHumidity", .number),
        DayOneField("windSpeedKPH", "windSpeedKPH", .number),
        DayOneField("pressureMB", "pressureMB", .number),
        DayOneField("weatherServiceName", "weatherServiceName", .string),
    ]

    /// The keys of a photo, recording, video or PDF (its format's key,
    /// `type` or `format`, is the kind's: ``DayOneMediaKind/formatKey``).
    static let medium = [
        DayOneField("identifier", "identifier", .string),
        DayOneField("md5", "md5", .string),
        DayOneField("orderInEntry", "orderInEntry", .integer),
        DayOneField("date", "date", .date),
        DayOneField("fileSize", "fileSize", .integer),
        DayOneField("width", "width", .integer),
        DayOneField("height", "height", .integer),
        DayOneField("duration", "duration", .number),
    ]

    /// The keys of an entry the importer reads itself rather than through
    /// ``entry``: everything else is unknown and kept in `dayOneExtra`.
    static let entryStructureKeys = Set(
        ["tags", "location", "weather"] + DayOneMediaKind.allCases.map(\.entryKey))
}
