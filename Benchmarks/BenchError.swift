import Foundation

/// Why a benchmark could not run or its result cannot be trusted.
///
/// `usage` errors come from the command line (exit 64); every other kind is
/// a failure of the setup, a contender or a verification (exit 1).
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, broadly.
    enum Kind {
        /// A bad command line.
        case usage
        /// A missing tool or file the run needs.
        case setup
        /// A contender exited badly.
        case contender
        /// A store did not hold what the run should have left in it.
        case verification
        /// Bad input data, with its location in the message.
        case input
    }

    /// The kind of failure.
    var kind: Kind
    /// A sentence saying what happened and, where possible, what to do.
    var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    var description: String { message }
}
