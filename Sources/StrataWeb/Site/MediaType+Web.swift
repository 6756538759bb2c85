import StrataFormats

/// How the view serves and shows a sniffed media type (``MediaType``,
/// told from the bytes, never from a name the store gives): a short
/// allow-list of pictures, sounds and films a browser plays. Anything else,
/// SVG and HTML included, is served as `application/octet-stream` for
/// download.
extension MediaType {
    /// The `Content-Type` it is served with, when it is on the allow-list.
    var allowedContentType: String? {
        switch fileExtension {
        case "jpg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "heic": "image/heic"
        case "wav": "audio/wav"
        case "mp3": "audio/mpeg"
        case "aac": "audio/aac"
        case "m4a": "audio/mp4"
        case "ogg": "audio/ogg"
        case "flac": "audio/flac"
        case "mp4": "video/mp4"
        case "webm": "video/webm"
        default: nil
        }
    }

    /// The `Content-Type` it is served with.
    var contentType: String { allowedContentType ?? "application/octet-stream" }

    /// How a page shows it.
    enum Presentation { case image, audio, video, download }

    /// A picture a browser decodes, a sound, a film, or a download (HEIC
    /// too: few browsers decode it).
    var presentation: Presentation {
        switch fileExtension {
        case "jpg", "png", "gif", "webp": .image
        case "wav", "mp3", "aac", "m4a", "ogg", "flac": .audio
        case "mp4", "webm": .video
        default: .download
        }
    }

    /// Whether it is served for download only.
    var isDownload: Bool { allowedContentType == nil }
}
