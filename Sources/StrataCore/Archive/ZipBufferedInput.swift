import Foundation

/// Sequential reads of a byte range of a zip through one fixed buffer, so
/// reading a directory of any size holds only the buffer.
struct ZipBufferedInput {
    static let bufferSize = 64 * 1024
    let file: ZipInputFile
    /// Where the next byte comes from.
    private(set) var position: Int64
    /// Reads never go past this offset.
    let end: Int64
    private var buffer: [UInt8] = []
    private var bufferStart: Int64 = 0

    init(file: ZipInputFile, start: Int64, end: Int64) {
        self.file = file
        position = start
        self.end = end
    }

    /// The next `count` bytes.
    ///
    /// - Throws: ``ArchiveError/Code/corrupt`` naming `entry` when the range
    ///   ends first.
    mutating func take(_ count: Int, entry: String?, what: String) throws -> [UInt8] {
        guard count >= 0, Int64(count) <= end - position else {
            throw ArchiveError(
                .corrupt, path: file.path, entry: entry,
                message: "the \(what) runs past the end of the central directory")
        }
        if count > Self.bufferSize {
            // Rare (a long extra field): read it directly.
            let result = try file.bytes(at: position, count: count, entry: entry, what: what)
            position += Int64(count)
            return result
        }
        let offsetInBuffer = Int(position - bufferStart)
        if position < bufferStart || offsetInBuffer + count > buffer.count {
            let length = Int(min(Int64(Self.bufferSize), end - position))
            buffer = try file.bytes(at: position, count: length, entry: entry, what: what)
            bufferStart = position
        }
        let start = Int(position - bufferStart)
        position += Int64(count)
        return Array(buffer[start..<start + count])
    }
}
