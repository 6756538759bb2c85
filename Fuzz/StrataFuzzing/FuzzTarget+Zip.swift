@testable import StrataCore
@testable import StrataFormats

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// The bytes as a zip: the central directory and its limits, every
        /// entry read (stored and deflated), an extraction into an empty
        /// folder (names, links, duplicates), then the bytes as a
        /// `strata-bundle/1` (manifest, schema, checksums).
        ///
        /// The limits are small so that the refusals run too: a fuzzed
        /// entry cannot ask for more than a few MiB.
        static func zip(_ data: Data) {
            let scratch = FileManager.default.temporaryDirectory
                .appendingPathComponent("strata-fuzz-zip-\(getpid())", isDirectory: true)
            try? FileManager.default.removeItem(at: scratch)
            guard
                (try? FileManager.default.createDirectory(
                    at: scratch.appendingPathComponent("out"), withIntermediateDirectories: true))
                    != nil
            else { return }
            defer { try? FileManager.default.removeItem(at: scratch) }
            let file = scratch.appendingPathComponent("input.zip")
            guard (try? data.write(to: file)) != nil else { return }
            var limits = ZipLimits()
            limits.maxEntries = 256
            limits.maxEntrySize = 4 << 20
            limits.maxTotalSize = 8 << 20
            limits.ratioFloor = 64 << 10
            guard let reader = try? ZipReader(contentsOf: file, limits: limits) else { return }
            for entry in reader.entries where entry.kind == .file {
                _ = try? reader.data(of: entry, limit: 4 << 20)
            }
            var extraction = ZipExtraction(into: scratch.appendingPathComponent("out"))
            extraction.synchronizes = false
            _ = try? extraction.extract(reader.entries, from: reader)
            var options = UnarchiveOptions()
            options.limits = limits
            if let bundle = try? BundleUnarchiver(bundle: file, options: options) {
                _ = try? bundle.verify()
            }
        }
    }
#endif
