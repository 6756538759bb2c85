import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A request written byte for byte to a server on 127.0.0.1 and the whole
/// answer read back (the request asks to close the connection): for the
/// view's tests, which send paths and headers no URL type would let
/// through, and for `strata-bench serve`. Not a general HTTP client: no
/// chunked bodies, no redirects, no TLS.
package struct LoopbackClient: Sendable {
    /// A response: status, headers by lowercased name, body.
    package struct Answer: Sendable {
        package var status: Int
        package var headers: [String: String]
        package var body: Data
    }

    /// Why no answer came.
    package enum Failure: Error { case connect(Int32), malformed(String) }

    /// The server's port on 127.0.0.1.
    package let port: Int

    /// A client of the server on `port`.
    package init(port: Int) { self.port = port }

    /// What `strata serve` announces on its first line of output
    /// (`Serving S at http://127.0.0.1:8080/[?token=…]`), read from
    /// `output` (a pipe of its stdout): the address and its port; nil when
    /// the output ended first (the server failed to start) or says
    /// something else.
    package static func announcedAddress(on output: FileHandle) -> (address: String, port: Int)? {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard
            let match = String(decoding: line, as: UTF8.self).firstMatch(
                of: /at (http:\/\/[^ ]+:([0-9]+)\/\S*)/),
            let port = Int(match.2)
        else { return nil }
        return (String(match.1), port)
    }

    /// `GET path` with `headers`, `Connection: close` added.
    package func get(_ path: String, headers: [String] = [], method: String = "GET") throws
        -> Answer
    {
        let text =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n"
        return try send(Data(text.utf8))
    }

    /// Sends `request` as it is and reads until the server closes.
    package func send(_ request: Data) throws -> Answer {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure.connect(errno) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure.connect(errno) }
        _ = request.withUnsafeBytes {
            Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        guard let end = received.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure.malformed(String(decoding: received, as: UTF8.self))
        }
        let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure.malformed(head)
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: Data(received[end.upperBound...]))
    }
}
