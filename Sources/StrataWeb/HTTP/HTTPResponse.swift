import Foundation

/// What the web view answers: a status, headers and the body's bytes.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The headers, in order; ``HTTPServer`` adds the security headers
    /// every response carries.
    public var headers: [(name: String, value: String)]
    /// The body (sent for GET; HEAD gets the headers alone).
    public var body: Data

    /// A response of `status` with `headers` and `body`.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page.
    public static func html(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8")],
            body: Data(text.utf8))
    }

    /// Plain text, for errors outside a page.
    public static func text(_ text: String, status: Int) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
            body: Data(text.utf8))
    }

    /// The value of the header `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The headers on every response, whatever the page: scripts only
    /// from the view itself (none inline, so a value that slipped through
    /// escaping would not run), no type sniffing, no framing, no referrer.
    public static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
