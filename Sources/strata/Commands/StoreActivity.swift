import Foundation
import Strata

/// Gives a raw SQLite or file-system error the path it concerns and what
/// `strata` was doing, so no message reaches the user as a bare
/// "SQLite error 11" or "The file couldn't be opened".
enum StoreActivity {
    /// Runs `body`; an `SQLiteError` or a Foundation file error it throws
    /// becomes `<path>: cannot <activity>: <reason>` — SQLite's reason, never
    /// the statement — with what to do for a full disk or an I/O error.
    /// Strata's own errors (which name their file already) pass through
    /// unchanged.
    static func run<T>(_ path: String, _ activity: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw CommandFailure(message: "\(path): cannot \(activity): \(reason(of: error))")
        } catch let error as CocoaError {
            throw CommandFailure(message: "\(path): cannot \(activity): \(reason(of: error))")
        } catch let error as NSError
            where error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain
        {
            throw CommandFailure(message: "\(path): cannot \(activity): \(reason(of: error))")
        }
    }

    /// What the store's files need, in words: the disk is full, the system
    /// could not read or write, or SQLite's own reason.
    static func reason(of error: SQLiteError) -> String {
        switch error.code.primaryResultCode {
        case .full:
            return fullDisk
        case .ioErr:
            return "the system could not read or write the store's files (\(error.message)); "
                + "check the disk and its free space, then run again; the unfinished "
                + "transaction was rolled back"
        default:
            return error.message
        }
    }

    /// The message for a full disk, wherever it was found.
    static let fullDisk =
        "the disk is full; free some space and run again (the unfinished transaction was "
        + "rolled back: the store holds what it held before it)"

    /// The operating system's reason when Foundation kept one ("Permission
    /// denied"), else Foundation's own description.
    static func reason(of error: Error) -> String {
        let bridged = error as NSError
        var posix: POSIXErrorCode?
        if bridged.domain == NSPOSIXErrorDomain {
            posix = POSIXErrorCode(rawValue: Int32(bridged.code))
        } else if let underlying = bridged.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            posix = POSIXErrorCode(rawValue: Int32(underlying.code))
        }
        if let posix {
            if [.ENOSPC, .EDQUOT, .EFBIG].contains(posix) { return fullDisk }
            return POSIXError(posix).localizedDescription
        }
        if bridged.domain == NSCocoaErrorDomain,
            bridged.code == CocoaError.fileWriteOutOfSpace.rawValue
        {
            return fullDisk
        }
        return bridged.localizedDescription
    }
}
