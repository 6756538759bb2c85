import Foundation
import Strata

/// Gives a raw SQLite or file-system error the path it concerns and what
/// `strata` was doing, so no message reaches the user as a bare
/// "SQLite error 11" or "The file couldn't be opened".
enum StoreActivity {
    /// Runs `body`; an `SQLiteError` or a Foundation file error it throws
    /// becomes `<path>: cannot <activity>: <reason>`. Strata's own errors
    /// (which name their file already) pass through unchanged.
    static func run<T>(_ path: String, _ activity: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw CommandFailure(message: "\(path): cannot \(activity): \(error)")
        } catch let error as CocoaError {
            throw CommandFailure(message: "\(path): cannot \(activity): \(reason(of: error))")
        } catch let error as NSError
            where error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain
        {
            throw CommandFailure(message: "\(path): cannot \(activity): \(reason(of: error))")
        }
    }

    /// The operating system's reason when Foundation kept one ("Permission
    /// denied"), else Foundation's own description.
    static func reason(of error: Error) -> String {
        let bridged = error as NSError
        if let underlying = bridged.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return POSIXError(code).localizedDescription
        }
        return bridged.localizedDescription
    }
}
