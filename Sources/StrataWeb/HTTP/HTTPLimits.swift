/// The limits ``HTTPServer`` runs under, so that a slow or abusive client
/// cannot stall the others or exhaust the machine.
public struct HTTPLimits: Sendable {
    /// Worker threads, each serving many connections through epoll.
    public var threads: Int = 4
    /// Open connections at most; more are refused at once.
    public var connections: Int = 512
    /// Open connections from one address at most (0: no limit).
    public var connectionsPerAddress: Int = 0
    /// Seconds a connection may stay idle, a slowly sent request included.
    public var timeoutSeconds: Int = 15
    /// Bytes per connection for the request line and headers (beyond it:
    /// 414 or 431).
    public var connectionMemory: Int = 32 * 1024
    /// Headers one request may carry (beyond it: 431).
    public var headers: Int = 64

    /// The default limits.
    public init() {}
}
