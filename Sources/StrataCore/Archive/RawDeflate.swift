import CArchive
import Foundation

/// Raw DEFLATE (RFC 1951, no zlib or gzip header), as in Core Data's
/// `Z_MODELCACHE` blobs.
///
/// Both directions stream in chunks, so a large input never needs one huge
/// zlib call, and inflating stops as soon as the output would pass a limit.
///
/// ```swift
/// let packed = try RawDeflate.deflate(Data("hello".utf8))
/// let unpacked = try RawDeflate.inflate(packed, limit: 1 << 20)
/// ```
public enum RawDeflate {
    /// Bytes handed to zlib per call, in and out.
    static let chunkSize = 64 * 1024

    /// Decompresses raw DEFLATE data.
    ///
    /// Bytes after the end of the DEFLATE stream are ignored, as zlib does.
    ///
    /// - Parameters:
    ///   - data: The compressed bytes.
    ///   - limit: The most bytes the output may hold; a guard against
    ///     decompression bombs.
    /// - Returns: The decompressed bytes.
    /// - Throws: ``CompressionError`` when the data is corrupt or truncated,
    ///   or when the output would exceed `limit`.
    public static func inflate(_ data: Data, limit: Int) throws -> Data {
        precondition(limit >= 0, "RawDeflate.inflate: negative limit")
        let zstream = try ZStream(.inflate)
        let stream = zstream.stream
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        let input = [UInt8](data)
        var consumed = 0
        return try input.withUnsafeBufferPointer { inputBytes in
            while true {
                if stream.pointee.avail_in == 0, consumed < input.count {
                    let count = min(chunkSize, input.count - consumed)
                    // zlib never writes through next_in; the type is just not const.
                    stream.pointee.next_in = UnsafeMutablePointer(
                        mutating: inputBytes.baseAddress.map { $0 + consumed })
                    stream.pointee.avail_in = UInt32(count)
                    consumed += count
                }
                // Ask for at most one byte past the limit: enough to notice
                // the overflow without producing more.
                let remaining = limit - output.count
                let room = remaining < chunkSize ? remaining + 1 : chunkSize
                let (code, produced) = buffer.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(room)
                    let code = CArchive.inflate(stream, Z_NO_FLUSH)
                    return (code, room - Int(stream.pointee.avail_out))
                }
                output.append(contentsOf: buffer[0..<produced])
                if output.count > limit {
                    throw CompressionError(
                        message: "inflated data exceeds the limit of \(limit) bytes")
                }
                switch code {
                case Z_STREAM_END:
                    return output
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.pointee.avail_in == 0 && consumed == input.count:
                    throw CompressionError(
                        message: "truncated data: the stream ends early", code: code)
                case Z_NEED_DICT:
                    throw CompressionError(message: "stream needs a preset dictionary", code: code)
                default:
                    throw zstream.fail(code)
                }
            }
        }
    }

    /// Compresses data as raw DEFLATE.
    ///
    /// - Parameters:
    ///   - data: The bytes to compress.
    ///   - level: zlib's level, 0 (store) … 9 (smallest); 6 is zlib's default.
    /// - Returns: The compressed bytes, without a header or checksum.
    /// - Throws: ``CompressionError`` if zlib fails (out of memory).
    public static func deflate(_ data: Data, level: Int = 6) throws -> Data {
        precondition((0...9).contains(level), "RawDeflate.deflate: level must be 0...9")
        let zstream = try ZStream(.deflate, level: Int32(level))
        let stream = zstream.stream
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        let input = [UInt8](data)
        var consumed = 0
        try input.withUnsafeBufferPointer { inputBytes in
            while true {
                if stream.pointee.avail_in == 0, consumed < input.count {
                    let count = min(chunkSize, input.count - consumed)
                    stream.pointee.next_in = UnsafeMutablePointer(
                        mutating: inputBytes.baseAddress.map { $0 + consumed })
                    stream.pointee.avail_in = UInt32(count)
                    consumed += count
                }
                let flush = consumed == input.count ? Z_FINISH : Z_NO_FLUSH
                let (code, produced) = buffer.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    let code = CArchive.deflate(stream, flush)
                    return (code, out.count - Int(stream.pointee.avail_out))
                }
                output.append(contentsOf: buffer[0..<produced])
                switch code {
                case Z_STREAM_END: return
                // Z_BUF_ERROR only means "no progress this call", which the
                // next call with fresh output room resolves.
                case Z_OK, Z_BUF_ERROR: continue
                default: throw zstream.fail(code)
                }
            }
        }
        return output
    }
}
