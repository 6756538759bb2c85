import Foundation

@testable import StrataFormats

extension TextInput {
    /// Reads the whole input through a buffer of `size` bytes.
    func readAll(bufferSize size: Int) throws -> [UInt8] {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        var bytes: [UInt8] = []
        while case let count = try read(into: buffer), count > 0 {
            bytes += buffer[0..<count]
        }
        return bytes
    }
}

extension TemporaryDirectory {
    /// Writes `bytes` to a new file of the folder and returns its path.
    func writeInput(_ bytes: [UInt8]) throws -> String {
        let url = file("input-\(UUID().uuidString).txt")
        try Data(bytes).write(to: url)
        return url.path
    }
}
