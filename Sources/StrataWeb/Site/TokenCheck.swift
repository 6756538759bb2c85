/// The token a view started with `--token` (or on an address other than
/// the loopback) asks of every request, compared in constant time.
enum TokenCheck {
    enum Outcome: Equatable {
        /// No token, or a wrong one.
        case refused
        /// The right token in `?token=`: the response sets the cookie.
        case fromQuery
        /// The right token in the cookie or `Authorization: Bearer`.
        case fromCookieOrHeader
    }

    static func check(_ request: HTTPRequest, token: String) -> Outcome {
        if let given = request.query["token"], matches(given, token) { return .fromQuery }
        if let given = request.cookies["strata_token"], matches(given, token) {
            return .fromCookieOrHeader
        }
        if let header = request.headers["authorization"], header.hasPrefix("Bearer "),
            matches(String(header.dropFirst("Bearer ".count)), token)
        {
            return .fromCookieOrHeader
        }
        return .refused
    }

    /// Whether `given` equals `token`, in a time that depends on the
    /// token's length only, not on where the two first differ.
    static func matches(_ given: String, _ token: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(token.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count {
            difference |= (index < a.count ? a[index] : 0) ^ b[index]
        }
        return difference == 0
    }
}
