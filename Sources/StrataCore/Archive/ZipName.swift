import Foundation

/// The rules every name in a zip must follow, for reading and for writing:
/// relative, `/`-separated, UTF-8, no `..`, nothing Windows would read as a
/// separator or a drive.
enum ZipName {
    /// The longest name accepted, in UTF-8 bytes (Linux's `PATH_MAX`).
    static let maxLength = 4096
    /// The longest single component, in UTF-8 bytes (`NAME_MAX`).
    static let maxComponentLength = 255

    /// A checked name: the path to use and the key duplicates are found by.
    struct Checked {
        /// `/`-joined components without `.` or empty ones; a folder keeps
        /// its trailing `/`.
        var path: String
        /// The components of `path`.
        var components: [String]
        /// Whether the name ends with `/`.
        var isDirectory: Bool
    }

    /// Checks a name's bytes and returns its normalised form.
    ///
    /// - Parameters:
    ///   - bytes: The name as stored in the archive.
    ///   - archive: The archive's path, for errors.
    /// - Throws: ``ArchiveError`` (`invalidName`, `absolutePath`,
    ///   `parentReference`) naming the entry.
    static func check(_ bytes: [UInt8], archive: String) throws -> Checked {
        guard let name = String(validating: bytes, as: UTF8.self) else {
            // Shown with replacement characters; the bytes cannot be trusted.
            throw ArchiveError(
                .invalidName, path: archive, entry: String(decoding: bytes, as: UTF8.self),
                message: "the name is not UTF-8")
        }
        func fail(_ code: ArchiveError.Code, _ message: String) -> ArchiveError {
            ArchiveError(code, path: archive, entry: name, message: message)
        }
        guard !bytes.isEmpty else { throw fail(.invalidName, "the name is empty") }
        guard bytes.count <= maxLength else {
            throw fail(.invalidName, "the name is longer than \(maxLength) bytes")
        }
        if let control = bytes.first(where: { $0 < 0x20 || $0 == 0x7f }) {
            throw fail(.invalidName, "the name holds a control character (\(control))")
        }
        if bytes.contains(UInt8(ascii: "\\")) {
            throw fail(.invalidName, "the name holds a backslash, a folder separator on Windows")
        }
        if bytes.first == UInt8(ascii: "/") {
            throw fail(.absolutePath, "the name is an absolute path")
        }
        if bytes.count >= 2, bytes[1] == UInt8(ascii: ":"),
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[0] & 0xdf)
        {
            throw fail(.invalidName, "the name starts with a drive letter")
        }
        let isDirectory = bytes.last == UInt8(ascii: "/")
        var components: [String] = []
        // Split on the byte, as the file system does (a `Character` split
        // would keep "/" with a combining mark after it in one part).
        for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        {
            if component.elementsEqual("..".utf8) {
                throw fail(.parentReference, "the name climbs out of the folder (\"..\")")
            }
            if component.elementsEqual(".".utf8) { continue }
            guard component.count <= maxComponentLength else {
                throw fail(
                    .invalidName, "a part of the name is longer than \(maxComponentLength) bytes")
            }
            components.append(String(decoding: component, as: UTF8.self))
        }
        guard !components.isEmpty else {
            throw fail(.invalidName, "the name has no part other than \".\" and \"/\"")
        }
        let path = components.joined(separator: "/") + (isDirectory ? "/" : "")
        return Checked(path: path, components: components, isDirectory: isDirectory)
    }

    /// The key two names collide on: on a case-insensitive or
    /// normalising file system (macOS, Windows) they name one file.
    static func key(_ components: some Sequence<String>) -> String {
        let joined = components.joined(separator: "/")
        // ASCII is its own canonical form: skip Foundation's normalisation,
        // which costs more than the rest of reading a central directory.
        if joined.utf8.allSatisfy({ $0 < 0x80 }) { return joined.lowercased() }
        return joined.precomposedStringWithCanonicalMapping.lowercased()
    }
}

/// Finds names that would land on the same file once extracted: the same
/// key twice, or a file where another entry needs a folder.
struct ZipNameSet {
    private var files: Set<String> = []
    private var folders: Set<String> = []

    /// Records a checked name.
    ///
    /// - Throws: ``ArchiveError/Code/duplicateName`` when the name collides
    ///   with one recorded before.
    mutating func insert(_ name: ZipName.Checked, archive: String) throws {
        let key = ZipName.key(name.components)
        func duplicate(_ message: String) -> ArchiveError {
            ArchiveError(.duplicateName, path: archive, entry: name.path, message: message)
        }
        if name.isDirectory {
            if files.contains(key) {
                throw duplicate("a file of the same name comes earlier")
            }
            // A folder listed twice (or after a file inside it) is harmless.
            folders.insert(key)
        } else {
            if files.contains(key) {
                throw duplicate("another entry has the same name (ignoring case and Unicode form)")
            }
            if folders.contains(key) {
                throw duplicate("an earlier entry needs a folder of this name")
            }
            files.insert(key)
        }
        // Every parent is a folder; none may be a file.
        var parent: [String] = []
        for component in name.components.dropLast() {
            parent.append(component)
            let parentKey = ZipName.key(parent)
            if files.contains(parentKey) {
                throw duplicate(
                    "its folder \(parent.joined(separator: "/")) is a file in the archive")
            }
            folders.insert(parentKey)
        }
    }
}
