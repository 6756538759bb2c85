/// What a media file's first bytes say it is: the file-name extension to
/// give it and whether a zip should store it rather than deflate it: its
/// content is compressed already, or it is sampled sound (WAV, AIFF), on
/// which deflate gains next to nothing for the time it costs.
///
/// Sniffed from magic numbers only, never from a name: JPEG, PNG, GIF,
/// WebP, HEIC/HEIF/AVIF, TIFF, BMP, PDF, MP3, AAC (ADTS), FLAC, Ogg, WAV,
/// AIFF, CAF, WebM, M4A/MP4/MOV (ISO base media), zip and gzip. Anything else is
/// `bin`, compressible.
///
/// ```swift
/// let type = MediaType.sniff(bytes)     // MediaType(fileExtension: "jpg", isCompressed: true)
/// ```
public struct MediaType: Hashable, Sendable {
    /// The extension, without the dot: `jpg`, `png`, `m4a`, `bin`.
    public var fileExtension: String
    /// Whether the content is compressed already (or is sampled sound):
    /// stored, not deflated, in a zip.
    public var isCompressed: Bool

    /// Creates a media type.
    public init(fileExtension: String, isCompressed: Bool) {
        self.fileExtension = fileExtension
        self.isCompressed = isCompressed
    }

    /// Unknown bytes.
    public static let unknown = MediaType(fileExtension: "bin", isCompressed: false)

    /// The type of the content starting with `bytes` (the first 64 bytes
    /// are enough).
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> MediaType {
        let head = Array(bytes.prefix(64))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count
                && Array(head[offset..<offset + magic.count]) == magic
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool {
            starts(Array(text.utf8), at: offset)
        }
        func type(_ ext: String, _ compressed: Bool = true) -> MediaType {
            MediaType(fileExtension: ext, isCompressed: compressed)
        }
        if starts([0xFF, 0xD8, 0xFF]) { return type("jpg") }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return type("png") }
        if ascii("GIF87a") || ascii("GIF89a") { return type("gif") }
        if ascii("RIFF") && ascii("WEBP", at: 8) { return type("webp") }
        if ascii("RIFF") && ascii("WAVE", at: 8) { return type("wav") }
        if ascii("RIFF") && ascii("AVI ", at: 8) { return type("avi") }
        if ascii("FORM") && (ascii("AIFF", at: 8) || ascii("AIFC", at: 8)) {
            return type("aiff")
        }
        if ascii("%PDF-") { return type("pdf") }
        if ascii("fLaC") { return type("flac") }
        if ascii("OggS") { return type("ogg") }
        if ascii("caff") { return type("caf") }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return type("webm") }
        if ascii("ID3") { return type("mp3") }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            return type("tiff", false)
        }
        if ascii("BM") && head.count >= 14 { return type("bmp", false) }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return type("zip") }
        if starts([0x1F, 0x8B]) { return type("gz") }
        if ascii("ftyp", at: 4) { return isoBaseMedia(brand: head.count >= 12 ? head[8..<12] : []) }
        // MPEG audio frames: an 11-bit sync; layer bits tell MP3 from AAC (ADTS).
        if head.count >= 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 {
            return type(head[1] & 0x06 == 0 ? "aac" : "mp3")
        }
        return .unknown
    }

    /// ISO base media files (`ftyp` box) by their major brand.
    private static func isoBaseMedia(brand: ArraySlice<UInt8>) -> MediaType {
        let name = String(decoding: brand, as: UTF8.self)
        let ext: String
        switch name {
        case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1": ext = "heic"
        case "avif", "avis": ext = "avif"
        case "M4A ", "M4B ", "M4P ": ext = "m4a"
        case "qt  ": ext = "mov"
        case "3gp4", "3gp5", "3gp6", "3g2a": ext = "3gp"
        default: ext = "mp4"
        }
        return MediaType(fileExtension: ext, isCompressed: true)
    }
}
