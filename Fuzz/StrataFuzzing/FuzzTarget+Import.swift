@testable import StrataFormats

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// The import readers: the bytes as a file read by the CSV reader
        /// (delimiter guessed, and as `;` txt lines), the txt-block reader,
        /// the JSON reader (document and lines) and the plist reader, each
        /// to its end or its first error it cannot read past, with small
        /// limits so that the limit paths run too.
        static func importReaders(_ data: Data) {
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("strata-fuzz-import-\(getpid()).input")
            guard (try? data.write(to: file)) != nil else { return }
            defer { try? FileManager.default.removeItem(at: file) }
            var limits = ImportLimits()
            limits.maximumFieldBytes = 4096
            limits.maximumRecordBytes = 16384
            limits.maximumFieldCount = 64
            limits.maximumDepth = 16
            let path = file.path
            if let reader = try? CSVReader(path: path, limits: limits) { drain(reader) }
            if let reader = try? CSVReader(
                path: path, dialect: .lines(separatedBy: UInt8(ascii: ";")), limits: limits)
            {
                drain(reader)
            }
            if let reader = try? TextBlockReader(path: path, limits: limits) { drain(reader) }
            if let reader = try? JSONRecordReader(path: path, lines: nil, limits: limits) {
                drain(reader)
            }
            if let reader = try? JSONRecordReader(path: path, lines: true, limits: limits) {
                drain(reader)
            }
            // Arrays at dotted paths, the rest of the document passed over.
            if let reader = try? JSONRecordReader(path: path, lines: false, limits: limits) {
                reader.selectedPaths = ["a", "b.c", "components"]
                drain(reader)
            }
            // The encoding guessed: UTF-8, or Windows-1252.
            if let reader = try? CSVReader(
                path: path, dialect: CSVDialect(encoding: .automatic), limits: limits)
            {
                drain(reader)
            }
            if let reader = try? PropertyListRecordReader(path: path, limits: limits) {
                drain(reader)
            }
        }

        /// Reads every record, touching every field; a reader that fails
        /// twice at one place has stopped.
        private static func drain(_ reader: some FieldRecordReader) {
            var failures = 0
            while failures < 100 {
                do {
                    guard try reader.nextRecord() else { return }
                    for index in 0..<reader.fieldCount {
                        _ = reader.field(index).count
                        _ = reader.position(ofField: index)
                    }
                    _ = reader.recordText()
                } catch {
                    failures += 1
                }
            }
        }

        private static func drain(_ reader: some TreeRecordReader) {
            var failures = 0
            var lastOffset: Int64 = -1
            while failures < 100 {
                do {
                    guard let record = try reader.nextRecord() else { return }
                    _ = record.fields.count
                } catch let error as ImportError {
                    if error.position.byteOffset == lastOffset { return }
                    lastOffset = error.position.byteOffset
                    failures += 1
                } catch {
                    return
                }
            }
        }
    }
#endif
