import Foundation

@testable import Strata
@testable import StrataCore

/// SHA-256 of a store's files (`""`, `-wal`, `-shm`; "absent" for a missing
/// one), to prove that a run or a dry run wrote nothing.
func storeFingerprint(_ url: URL) throws -> [String] {
    try ["", "-wal", "-shm"].map { suffix in
        let path = url.path + suffix
        guard FileManager.default.fileExists(atPath: path) else { return "absent" }
        return SHA256.hash(try Data(contentsOf: URL(fileURLWithPath: path))).map {
            String($0, radix: 16)
        }.joined()
    }
}
