/// How a zip entry's bytes are kept: as they are, or deflated.
///
/// Already-compressed content (JPEG, PNG, HEIC, audio, video) is best
/// ``stored``: deflating it costs time and saves nothing. Text is best
/// ``deflated``. The deflate level is the writer's (see
/// ``ZipWriter/init(creatingAt:deflateLevel:)``): libarchive takes it once
/// per archive.
public enum ZipCompression: Hashable, Sendable {
    /// The bytes as they are (zip method 0).
    case stored
    /// Deflated (zip method 8).
    case deflated
}
