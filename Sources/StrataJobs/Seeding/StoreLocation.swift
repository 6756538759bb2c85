import Foundation

/// Where a ``StoreContainer`` keeps its store.
public enum StoreLocation: Hashable, Sendable {
    /// `<data folder>/<app>/<Model>.sqlite`, the Linux analogue of an app's
    /// Documents folder: the data folder is `$XDG_DATA_HOME` when set to an
    /// absolute path, else `~/.local/share` (the XDG base directory rules).
    case applicationData(app: String)
    /// Exactly this file.
    case file(URL)

    /// The application-data location of the running program (its process name).
    public static var defaultForThisProgram: StoreLocation {
        .applicationData(app: ProcessInfo.processInfo.processName)
    }

    /// The store file for `model`.
    ///
    /// - Parameter environment: The variables to read `XDG_DATA_HOME` and
    ///   `HOME` from (the process's by default).
    /// - Throws: ``SeedingError`` (`unwritableFolder`) when an application
    ///   name would leave its folder, or no home folder is known.
    public func storeURL(
        model: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> URL {
        switch self {
        case .file(let url):
            return url
        case .applicationData(let app):
            guard !app.isEmpty, app != ".", app != "..", !app.contains("/") else {
                throw SeedingError(
                    .unwritableFolder, path: app,
                    "not an application name for a data folder (no '/', not '.' or '..')")
            }
            return try Self.dataHome(environment: environment)
                .appendingPathComponent(app, isDirectory: true)
                .appendingPathComponent("\(model).sqlite")
        }
    }

    /// `$XDG_DATA_HOME`, or `$HOME/.local/share`. A relative
    /// `XDG_DATA_HOME` is ignored, as the specification says.
    static func dataHome(environment: [String: String]) throws -> URL {
        if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local/share", isDirectory: true)
        }
        throw SeedingError(
            .unwritableFolder, path: "$HOME",
            "neither XDG_DATA_HOME nor HOME is an absolute path; give the store's location")
    }
}
