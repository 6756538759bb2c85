import CMicroHTTPD
import Foundation

/// An HTTP server on libmicrohttpd answering GET and HEAD requests with a
/// Swift function, for the web view (`strata serve`).
///
/// The protocol is libmicrohttpd's: it reads requests, enforces
/// ``HTTPLimits``, and refuses other methods (405) and requests with a body
/// (413) before `handler` sees them. `handler` runs on libmicrohttpd's
/// worker threads, several at once.
///
/// ```swift
/// let server = try HTTPServer(host: "127.0.0.1", port: 0) { request in
///     .text("hello from \(request.path)\n", status: 200)
/// }
/// print("listening on port \(server.port)")
/// server.stop()
/// ```
public final class HTTPServer: @unchecked Sendable {
    /// The handler, retained for libmicrohttpd's callbacks.
    private final class Handler {
        let respond: @Sendable (HTTPRequest) -> HTTPResponse
        init(_ respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
            self.respond = respond
        }
    }

    private let handler: Unmanaged<Handler>
    private var server: OpaquePointer?
    private let lock = NSLock()

    /// The port the server listens on (the one chosen when 0 was asked).
    public let port: Int

    /// Starts listening on `host` (an IPv4 or IPv6 address) and `port` (0:
    /// a free port, see ``port``).
    ///
    /// - Throws: ``HTTPServerError`` when libmicrohttpd cannot be loaded or
    ///   the address cannot be bound.
    public init(
        host: String, port: Int, limits: HTTPLimits = HTTPLimits(),
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(HTTPServerError) {
        guard (0...65535).contains(port) else {
            throw HTTPServerError("port \(port) is not between 0 and 65535")
        }
        let box = Unmanaged.passRetained(Handler(handler))
        let cLimits = strata_http_limits(
            threads: UInt32(max(1, limits.threads)),
            connections: UInt32(max(1, limits.connections)),
            connections_per_address: UInt32(max(0, limits.connectionsPerAddress)),
            timeout_seconds: UInt32(max(1, limits.timeoutSeconds)),
            connection_memory: max(4096, limits.connectionMemory),
            headers: UInt32(max(1, limits.headers)))
        var failure = [CChar](repeating: 0, count: 512)
        let started = strata_http_start(
            host, UInt16(port), cLimits, HTTPServer.answer, box.toOpaque(), &failure,
            failure.count)
        guard let started else {
            box.release()
            throw HTTPServerError(
                String(
                    decoding: failure.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                    as: UTF8.self))
        }
        self.handler = box
        self.server = started
        self.port = Int(strata_http_port(started))
    }

    deinit { stop() }

    /// Stops listening: requests in progress finish, connections close.
    /// Calling it again does nothing.
    public func stop() {
        lock.lock()
        let running = server
        server = nil
        lock.unlock()
        guard let running else { return }
        strata_http_stop(running)
        handler.release()
    }

    /// One header, query argument or cookie into the ``HTTPRequest`` at
    /// `context`; a name given twice keeps its first value.
    private static let collect: strata_http_visitor = { context, kind, name, value in
        guard let context, let name, let value else { return }
        let request = context.assumingMemoryBound(to: HTTPRequest.self)
        let key = String(cString: name)
        let text = String(cString: value)
        switch kind {
        case strata_http_value_query:
            if request.pointee.query[key] == nil { request.pointee.query[key] = text }
        case strata_http_value_cookie:
            if request.pointee.cookies[key] == nil { request.pointee.cookies[key] = text }
        default:
            let lowered = key.lowercased()
            if request.pointee.headers[lowered] == nil { request.pointee.headers[lowered] = text }
        }
    }

    /// libmicrohttpd's callback: the request read into an ``HTTPRequest``,
    /// the handler's response queued with the security headers.
    private static let answer: strata_http_handler = { context, exchange in
        guard let context, let exchange else { return }
        let handler = Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue()
        // Bytes that are not UTF-8 become U+FFFD: nothing matches them.
        func text(_ pointer: UnsafePointer<CChar>?) -> String? {
            pointer.map { String(cString: $0) }
        }
        var request = HTTPRequest(
            method: text(strata_http_method(exchange)) ?? "GET",
            path: text(strata_http_path(exchange)) ?? "/")
        withUnsafeMutablePointer(to: &request) { pointer in
            strata_http_values(exchange, HTTPServer.collect, pointer)
        }
        let response = handler.respond(request)
        let headers = response.headers + HTTPResponse.securityHeaders
        // The C strings live until the response is queued (it copies them).
        var storage: [UnsafeMutablePointer<CChar>] = []
        defer { storage.forEach { free($0) } }
        var cHeaders: [strata_http_header] = []
        for header in headers {
            guard let name = strdup(header.name), let value = strdup(header.value) else { continue }
            storage += [name, value]
            cHeaders.append(strata_http_header(name: name, value: value))
        }
        response.body.withUnsafeBytes { body in
            _ = strata_http_respond(
                exchange, UInt32(response.status), cHeaders, cHeaders.count, body.baseAddress,
                body.count)
        }
    }
}
