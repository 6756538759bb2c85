/// A GET or HEAD request to the web view, as ``HTTPServer`` hands it over.
///
/// Values are read from libmicrohttpd while the request is answered; the
/// path and query values arrive percent-decoded.
public struct HTTPRequest: Sendable {
    /// `GET` or `HEAD`.
    public var method: String
    /// The path, percent-decoded, without the query (`/entity/Note`).
    public var path: String
    /// The query's arguments, by name (a name given twice: its first value).
    public var query: [String: String]
    /// The headers, by lowercased name.
    public var headers: [String: String]
    /// The cookies, by name.
    public var cookies: [String: String]

    /// A request, for the view and its tests.
    public init(
        method: String = "GET", path: String, query: [String: String] = [:],
        headers: [String: String] = [:], cookies: [String: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
    }

    /// The path's components between slashes, empty ones dropped.
    public var pathComponents: [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
