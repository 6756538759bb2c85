import CArchive
import Foundation

/// One zlib stream (`z_stream`), set up for raw inflate or raw deflate.
///
/// zlib keeps a pointer back to the `z_stream` inside its state and refuses a
/// stream that has moved, so the struct lives in memory this class allocates
/// and never moves. `deinit` releases zlib's state and that memory.
final class ZStream {
    /// Which direction the stream works in; decides the matching `…End` call.
    enum Direction {
        case inflate
        case deflate
    }

    /// The stream; its address is stable for the life of this object.
    let stream: UnsafeMutablePointer<z_stream>
    /// The direction chosen at init.
    let direction: Direction

    /// Initializes a raw (headerless, window bits -15) stream.
    ///
    /// - Parameters:
    ///   - direction: Inflate or deflate.
    ///   - level: The deflate level, 0…9 (ignored for inflate).
    /// - Throws: ``CompressionError`` when zlib cannot set up the stream.
    init(_ direction: Direction, level: Int32 = 6) throws {
        self.direction = direction
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code: Int32
        switch direction {
        case .inflate: code = strata_inflate_init_raw(stream)
        case .deflate: code = strata_deflate_init_raw(stream, level)
        }
        guard code == Z_OK else {
            // zlib frees its own state when the init fails; only our memory
            // is left to release.
            let error = CompressionError(message: ZStream.message(stream, code: code), code: code)
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw error
        }
    }

    deinit {
        // The end calls only report a stream left mid-way (Z_DATA_ERROR),
        // which is expected after a failed inflate; the state is freed anyway.
        switch direction {
        case .inflate: _ = inflateEnd(stream)
        case .deflate: _ = deflateEnd(stream)
        }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// zlib's message for the last error, or a generic one for `code`.
    static func message(_ stream: UnsafeMutablePointer<z_stream>, code: Int32) -> String {
        if let text = stream.pointee.msg {
            return String(cString: text)
        }
        switch code {
        case Z_DATA_ERROR: return "corrupt data"
        case Z_BUF_ERROR: return "no progress possible"
        case Z_MEM_ERROR: return "out of memory"
        case Z_STREAM_ERROR: return "invalid stream state or parameter"
        case Z_VERSION_ERROR: return "incompatible zlib version"
        default: return "zlib returned \(code)"
        }
    }

    /// The ``CompressionError`` for `code`, with zlib's message.
    func fail(_ code: Int32) -> CompressionError {
        CompressionError(message: ZStream.message(stream, code: code), code: code)
    }
}
