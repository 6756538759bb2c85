import Foundation
import StrataCore

/// Writes exported records, one at a time, into an ``ExportOutput`` in one
/// format.
protocol ExportRecordWriter: AnyObject {
    /// Writes one record.
    ///
    /// - Throws: ``ExportError`` `unwritableValue` when the format cannot
    ///   hold one of its values so that it reads back the same.
    func write(_ record: ImportRecord, id: String) throws
    /// Writes what ends the document.
    func finish() throws
}

/// JSON (an array of objects, one per line) or JSON Lines.
final class JSONExportWriter: ExportRecordWriter {
    private let output: ExportOutput
    private let lines: Bool
    private var encoder = JSONWriter()
    private var count = 0

    init(output: ExportOutput, lines: Bool) {
        self.output = output
        self.lines = lines
    }

    package func write(_ record: ImportRecord, id: String) throws {
        encoder.clear()
        encoder.openObject()
        for field in record.fields where field.value != .null {
            encoder.member(field.key, field.value)
        }
        encoder.closeObject()
        if !lines { output.append(count == 0 ? "[\n" : ",\n") }
        output.buffer += encoder.bytes
        if lines { output.buffer.append(0x0A) }
        count += 1
        try output.flushIfFull()
    }

    package func finish() throws {
        if !lines { output.append(count == 0 ? "[]\n" : "\n]\n") }
    }
}

/// An XML property list: an array of dicts.
final class PropertyListExportWriter: ExportRecordWriter {
    private let output: ExportOutput
    private var text = XMLPropertyListText()
    private var count = 0

    init(output: ExportOutput) {
        self.output = output
    }

    package func write(_ record: ImportRecord, id: String) throws {
        if count == 0 { output.append(XMLPropertyListText.header + "<array>\n") }
        text.bytes.removeAll(keepingCapacity: true)
        text.appendDictionary(record.fields, indent: 1)
        output.buffer += text.bytes
        count += 1
        try output.flushIfFull()
    }

    package func finish() throws {
        output.append(
            count == 0
                ? XMLPropertyListText.header + "<array/>\n</plist>\n" : "</array>\n</plist>\n")
    }
}

/// txt blocks, separated by blank lines.
final class TextBlockExportWriter: ExportRecordWriter {
    private let output: ExportOutput
    private let bodyKey: String
    private var count = 0

    init(output: ExportOutput, bodyKey: String) {
        self.output = output
        self.bodyKey = bodyKey
    }

    package func write(_ record: ImportRecord, id: String) throws {
        let block: String
        do {
            block = try TextBlockWriter.blockText(of: record, bodyKey: bodyKey)
        } catch let error as ImportError {
            throw ExportError(.unwritableValue, path: output.path, "\(id): \(error.message)")
        }
        if count > 0 { output.buffer.append(0x0A) }
        output.append(block)
        count += 1
        try output.flushIfFull()
    }

    package func finish() throws {}
}
