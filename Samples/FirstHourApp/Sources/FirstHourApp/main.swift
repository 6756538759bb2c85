// A newcomer's first hour, in typed code only: the contacts and notes apps
// a new user wrote from the README and the articles. Prints only what does
// not change between runs; `make test` compares it with expected-output.txt.
import Foundation

let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("first-hour-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

// Top-level code runs on the main actor; the flows are @MainActor functions
// (Context and Store are not Sendable), called from here.
try runContacts(in: scratch)
try runNotes(in: scratch)
