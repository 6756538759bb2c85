/// Why a diagram could not be made or written.
public struct DiagramError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Hashable, Sendable {
        /// Graphviz's `dot` is not installed (not on `PATH`).
        case graphvizMissing
        /// `dot` ran and failed.
        case graphvizFailed
        /// A version asked for is not in the model's chain.
        case unknownVersion
        /// The output file could not be written.
        case cannotWrite
    }

    /// What went wrong.
    public var kind: Kind
    /// The explanation shown to the user.
    public var message: String

    /// Creates an error of `kind`.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
