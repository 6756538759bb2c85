import Foundation
import Strata
import StrataWeb

/// `strata serve STORE|BUNDLE.zip`: a read-only web view of a store or a
/// bundle, until interrupted.
struct ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Show a store or a bundle in a browser: objects, media, migration plans."
    static let usage = """
        USAGE: strata serve <store-or-bundle> [--schemas <dir>] [--port <n>] [--host <address>]
                            [--token <token>]

        ARGUMENTS:
          <store-or-bundle>   A Core Data SQLite store, or a strata-bundle/1 zip (verified and
                              restored into a private temporary store, removed on exit).

        OPTIONS:
          --schemas <dir>     The model folder: the version matching the store reads it, and
                              the migration preview shows the plan to its newest version.
                              Without it, the model the store names.
          --port <n>          The port (default 8080; 0: any free port, printed).
          --host <address>    The IPv4 or IPv6 address to listen on (default 127.0.0.1).
                              Any other than the loopback needs a token: the one given, or
                              a random one, printed.
          --token <token>     Ask every request for this token (?token=, then a cookie).

        The view only reads: the store is opened read-only (never written, never
        checkpointed). Stop it with Ctrl-C.
        """

    var source: String
    var schemas: String?
    var port: Int
    var host: String
    var token: String?

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let schemas = try arguments.option("--schemas")
        let port = try arguments.integerOption("--port") ?? 8080
        let host = try arguments.option("--host") ?? "127.0.0.1"
        let token = try arguments.option("--token")
        let source = try arguments.storePath("<store-or-bundle>")
        try arguments.finish()
        return Self(source: source, schemas: schemas, port: port, host: host, token: token)
    }

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw UsageError("'--port' must be between 0 and 65535", command: Self.self)
        }
        if let token,
            token.isEmpty || token.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == 0x3B })
        {
            throw UsageError(
                "'--token' must be printable ASCII without spaces or ';'", command: Self.self)
        }
    }

    /// Whether `host` is a loopback address, the only kind served without
    /// a token.
    static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host.hasPrefix("127.")
    }

    func run() throws {
        // Ctrl-C and kill are waited for below, on this thread alone.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let served = try ServedStore(source, schemas: schemas)
        defer { served.remove() }
        var options = try StoreSite.Options.command(schemas: schemas, showing: source)
        var token = self.token
        if token == nil, !Self.isLoopback(host) {
            token = Self.randomToken()
        }
        options.token = token
        let site = try StoreSite(storeAt: served.store, options: options)
        let limits = HTTPLimits()
        let server = try HTTPServer(host: host, port: port, limits: limits) { request in
            site.respond(request)
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        var address = "http://\(shownHost):\(server.port)/"
        if let token { address += "?token=\(token)" }
        Terminal.output("Serving \(source) at \(address)")
        Terminal.error("Read-only. Press Ctrl-C to stop.")
        var received: Int32 = 0
        sigwait(&signals, &received)
        server.stop()
    }

    /// 128 random bits as 32 hexadecimal digits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - word.count) + word
        }.joined()
    }
}
