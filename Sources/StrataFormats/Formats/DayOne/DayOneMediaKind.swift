/// The four kinds of media a Day One entry holds, each with its key in an
/// entry, its folder in the export zip and its `Medium.type` in the Diary.
///
/// | kind | entry key | folder | Medium.type | format key | file extension |
/// |---|---|---|---|---|---|
/// | photo | `photos` | `photos/` | `image` | `type` | the format (`jpeg`, `png`, `heic`…) |
/// | audio | `audios` | `audios/` | `sound` | `format` | always `m4a` (the JSON may say `aac`) |
/// | video | `videos` | `videos/` | `video` | `type` | the format (`mov`, `mp4`…) |
/// | PDF | `pdfAttachments` | `pdfs/` | `pdf` | `type` | `pdf` |
public enum DayOneMediaKind: String, CaseIterable, Sendable {
    /// A photo or image.
    case photo
    /// A sound recording.
    case audio
    /// A video.
    case video
    /// A PDF document.
    case pdf

    /// The key of the kind's array in an entry.
    public var entryKey: String {
        switch self {
        case .photo: "photos"
        case .audio: "audios"
        case .video: "videos"
        case .pdf: "pdfAttachments"
        }
    }

    /// The folder of the kind's files in the zip, without the slash.
    public var folder: String {
        switch self {
        case .photo: "photos"
        case .audio: "audios"
        case .video: "videos"
        case .pdf: "pdfs"
        }
    }

    /// The Diary's `Medium.type` of the kind.
    public var mediumType: String {
        switch self {
        case .photo: "image"
        case .audio: "sound"
        case .video: "video"
        case .pdf: "pdf"
        }
    }

    /// The key naming the file's format in a medium's object.
    public var formatKey: String { self == .audio ? "format" : "type" }

    /// The host and path Day One writes in a `dayone-moment:` reference to
    /// a medium of this kind, before its identifier.
    var momentPrefix: String {
        switch self {
        case .photo: "dayone-moment://"
        case .audio: "dayone-moment:/audio/"
        case .video: "dayone-moment:/video/"
        case .pdf: "dayone-moment:/pdfAttachment/"
        }
    }

    /// The kind whose `Medium.type` is `type`, or nil.
    public init?(mediumType type: String) {
        guard let kind = Self.allCases.first(where: { $0.mediumType == type }) else { return nil }
        self = kind
    }

    /// The extension of a file of this kind in the zip, from its format
    /// as the JSON gives it (`jpeg`, `aac`, `mov`), or nil for none.
    public func fileExtension(format: String?) -> String? {
        switch self {
        case .audio: return "m4a"
        case .pdf: return "pdf"
        case .photo, .video:
            guard let format, !format.isEmpty else { return nil }
            let lowered = format.lowercased()
            guard lowered.utf8.allSatisfy({ (48...57).contains($0) || (97...122).contains($0) })
            else { return nil }
            return lowered == "jpg" ? "jpeg" : lowered
        }
    }
}
