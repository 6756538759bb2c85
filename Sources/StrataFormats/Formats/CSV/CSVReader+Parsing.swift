import Foundation
import StrataCore

extension CSVReader {
    /// What one pass of the scanner over the buffered bytes found.
    enum ParseOutcome {
        /// A whole record: its text ends at `end`, the next one starts at
        /// `next`; `lineBreaks` counts its line breaks, its own included.
        /// `pendingLineFeed` when it ended on a CR at the buffer's end.
        case complete(end: Int, next: Int, lineBreaks: Int, pendingLineFeed: Bool)
        /// The buffer ends inside the record, in the field from `fieldStart`.
        case incomplete(fieldStart: Int)
        /// The file ends inside the quoted field opened at `fieldStart`.
        case unclosedQuote(fieldStart: Int, lineBreaks: Int)
    }

    /// Reads the next record.
    ///
    /// - Returns: false after the last record.
    /// - Throws: ``ImportError`` located at the offending byte; see
    ///   ``CSVReader`` for the cases. The next call goes on with the next
    ///   record, except after a file that cannot be read or decoded
    ///   (`.unreadable`, an unpaired UTF-16 surrogate), which it throws again.
    public func nextRecord() throws -> Bool {
        if skipsOversizedRecord { try skipRestOfOversizedRecord() }
        spanCount = 0
        fieldTotal = 0
        strayTextOffset = nil
        recordStart = position
        recordEnd = position
        guard try skipBlankLines() else { return false }
        recordStart = position
        recordEnd = position
        recordLine = line
        recordOffset = sourceOffset
        var outcome = parseRecord()
        while case .incomplete(let fieldStart) = outcome {
            try refuseIncompleteRecordOverLimits(fieldStart: fieldStart)
            // A record that crosses the buffer's end is scanned again from its
            // start once more bytes are in: rare (once per buffer) and simple.
            try refill()
            recordStart = position
            recordEnd = position
            outcome = parseRecord()
        }
        switch outcome {
        case .complete(let end, let next, let lineBreaks, let pendingLineFeed):
            recordEnd = end
            consume(upTo: next)
            line += lineBreaks
            skipsLineFeed = pendingLineFeed
            try checkRecord()
            return true
        case .unclosedQuote(let fieldStart, let lineBreaks):
            recordEnd = end
            spanCount = 0
            let opening = locate(fieldStart)
            consume(upTo: end)
            line += lineBreaks
            throw ImportError(
                .syntax, at: opening,
                "the quoted field opened on line \(opening.line) is not closed before the end"
                    + " of the file")
        case .incomplete:
            return false  // Not reached: the loop above ends only on the others.
        }
    }

    /// Steps over line breaks before a record.
    ///
    /// - Returns: false at the end of the input.
    private func skipBlankLines() throws -> Bool {
        while true {
            if position == end {
                if reachedEnd { return false }
                try refill()
                continue
            }
            let byte = buffer[position]
            if skipsLineFeed {
                skipsLineFeed = false
                if byte == Self.lineFeed {
                    consume(upTo: position + 1)
                    continue
                }
            }
            guard byte == Self.lineFeed || byte == Self.carriageReturn else { return true }
            line += 1
            consume(upTo: position + 1)
            skipsLineFeed = byte == Self.carriageReturn
        }
    }

    /// Moves `position` to `next`, keeping the file offset.
    func consume(upTo next: Int) {
        let count = next - position
        if input.encoding == .utf8 {
            sourceOffset += Int64(count)
        } else {
            sourceOffset += Int64(
                input.inputByteCount(
                    of: UnsafeBufferPointer(start: buffer + position, count: count)))
        }
        position = next
    }

    // MARK: - Scanning

    /// Scans one record from `position` over the buffered bytes, filling the
    /// field spans; the hot loop of the reader.
    func parseRecord() -> ParseOutcome {
        let buffer = self.buffer
        let end = self.end
        let atEnd = reachedEnd
        let unquoted = unquotedScanner
        let quoted = quotedScanner
        let unquotedClasses = self.unquotedClasses
        let quote = quoteValue
        let delimiter = delimiterValue
        let maximumFields = limits.maximumFieldCount
        let stop = Self.stopClass
        let lineFeed = Self.lineFeed
        let carriageReturn = Self.carriageReturn
        var spans = self.spans
        var spanCapacity = self.spanCapacity
        var spanCount = 0
        var fieldTotal = 0
        var lineBreaks = 0
        var stray: Int?
        var needsCheck = false
        sideCount = 0
        var cursor = position
        while true {
            let fieldStart = cursor
            var flags = 0
            var contentStart = cursor
            var contentEnd = cursor
            if cursor < end, Int(buffer[cursor]) == quote {
                flags = FieldSpan.quoted
                var scan = cursor + 1
                var segment = scan  // The first byte not yet copied aside.
                var sideStart = -1
                while true {
                    scan = quoted.scan(buffer, from: scan, to: end, needsCheck: &needsCheck)
                    if scan == end {
                        return atEnd
                            ? .unclosedQuote(fieldStart: fieldStart, lineBreaks: lineBreaks)
                            : .incomplete(fieldStart: fieldStart)
                    }
                    let byte = buffer[scan]
                    if byte == lineFeed {
                        if buffer[scan - 1] != carriageReturn { lineBreaks += 1 }
                        scan += 1
                        continue
                    }
                    if byte == carriageReturn {
                        lineBreaks += 1
                        scan += 1
                        continue
                    }
                    // A quote: doubled, or the closing one.
                    if scan + 1 == end, !atEnd { return .incomplete(fieldStart: fieldStart) }
                    if scan + 1 < end, Int(buffer[scan + 1]) == quote {
                        if sideStart < 0 { sideStart = sideCount }
                        appendAside(buffer + segment, count: scan + 1 - segment)
                        scan += 2
                        segment = scan
                        continue
                    }
                    if sideStart >= 0 {
                        appendAside(buffer + segment, count: scan - segment)
                        contentStart = sideStart
                        contentEnd = sideCount
                        flags |= FieldSpan.copied
                    } else {
                        contentStart = cursor + 1
                        contentEnd = scan
                    }
                    scan += 1
                    break
                }
                if scan < end, unquotedClasses[Int(buffer[scan])] & stop == 0 {
                    // Text after the closing quote: an error once the record's
                    // end is found, so the reader can go on after it.
                    if stray == nil { stray = scan }
                    while scan < end, unquotedClasses[Int(buffer[scan])] & stop == 0 {
                        scan += 1
                    }
                }
                if scan == end, !atEnd { return .incomplete(fieldStart: fieldStart) }
                cursor = scan
            } else {
                cursor = unquoted.scan(buffer, from: cursor, to: end, needsCheck: &needsCheck)
                if cursor == end, !atEnd { return .incomplete(fieldStart: fieldStart) }
                contentEnd = cursor
            }
            fieldTotal += 1
            if fieldTotal <= maximumFields {
                if spanCount == spanCapacity {
                    spans = growSpans()
                    spanCapacity = self.spanCapacity
                }
                spans[spanCount] = FieldSpan(
                    rawStart: fieldStart, start: contentStart, end: contentEnd, flags: flags)
                spanCount += 1
            }
            var next = cursor
            var pendingLineFeed = false
            if cursor < end {
                let byte = buffer[cursor]
                if Int(byte) == delimiter {
                    cursor += 1
                    continue
                }
                lineBreaks += 1
                next = cursor + 1
                if byte == carriageReturn {
                    if next < end {
                        if buffer[next] == lineFeed { next += 1 }
                    } else {
                        pendingLineFeed = !atEnd
                    }
                }
            }
            self.spanCount = spanCount
            self.fieldTotal = fieldTotal
            strayTextOffset = stray
            recordNeedsCheck = needsCheck
            return .complete(
                end: cursor, next: next, lineBreaks: lineBreaks, pendingLineFeed: pendingLineFeed)
        }
    }

    /// Doubles the span storage (up to the field-count limit, so never much).
    private func growSpans() -> UnsafeMutablePointer<FieldSpan> {
        let grown = UnsafeMutablePointer<FieldSpan>.allocate(capacity: spanCapacity * 2)
        grown.moveInitialize(from: spans, count: spanCapacity)
        spans.deallocate()
        spans = grown
        spanCapacity *= 2
        return grown
    }

    /// Appends bytes of a quoted field with doubled quotes to the side buffer.
    private func appendAside(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        if sideCount + count > sideCapacity {
            var newCapacity = sideCapacity * 2
            while newCapacity < sideCount + count { newCapacity *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: side, count: sideCount)
            side.deallocate()
            side = grown
            sideCapacity = newCapacity
        }
        (side + sideCount).update(from: bytes, count: count)
        sideCount += count
    }

    // MARK: - Checks

    /// Applies the size limits, the syntax rule after closing quotes, the
    /// UTF-8 check and the field count to the record just scanned, in this
    /// order (sizes first, as a record refused before its end is found).
    private func checkRecord() throws {
        if recordEnd - recordStart > limits.maximumRecordBytes {
            throw refuseForSize(
                ImportError(
                    .tooLarge, at: recordPosition,
                    "the record is longer than \(limits.maximumRecordBytes) bytes"))
        }
        if expectedFieldCount == nil { expectedFieldCount = fieldTotal }
        if fieldTotal > limits.maximumFieldCount {
            throw refuseForSize(
                ImportError(
                    .tooLarge, at: recordPosition,
                    "the record has more than \(limits.maximumFieldCount) fields"))
        }
        // No field is longer than its record: most records skip the loop.
        for index in 0..<spanCount
        where recordEnd - recordStart > limits.maximumFieldBytes
            && spans[index].end - spans[index].start > limits.maximumFieldBytes
        {
            throw refuseForSize(
                ImportError(
                    .tooLarge, at: locate(spans[index].rawStart),
                    "the field is longer than \(limits.maximumFieldBytes) bytes"))
        }
        if let strayTextOffset {
            throw ImportError(
                .syntax, at: locate(strayTextOffset),
                "unexpected text after the closing quote of a field (a quoted field must be"
                    + " followed by a delimiter or a line break)")
        }
        if recordNeedsCheck { try checkEncoding() }
        if let expectedFieldCount, fieldTotal != expectedFieldCount, declaredFieldCount == nil {
            let source = dialect.hasHeader ? "the header has" : "the first record has"
            throw ImportError(
                .structure, at: recordPosition,
                "the record has \(fieldTotal) field\(fieldTotal == 1 ? "" : "s"); \(source)"
                    + " \(expectedFieldCount)")
        }
    }

    /// Drops the current record's fields and text, as for a record refused
    /// before its end was found, so that a record over a limit looks the
    /// same whatever the buffer held; returns `error`.
    private func refuseForSize(_ error: ImportError) -> ImportError {
        spanCount = 0
        recordEnd = recordStart
        return error
    }

    /// Throws at the first byte of the record that is not valid UTF-8 or is
    /// NUL. The whole record is checked at once: its delimiters, quotes and
    /// line breaks are ASCII, so it is valid exactly when its fields are.
    private func checkEncoding() throws {
        let text = UnsafeBufferPointer(start: buffer + recordStart, count: recordEnd - recordStart)
        guard let problem = UTF8Validator.firstProblem(in: text) else { return }
        throw ImportError(
            .encoding, at: locate(recordStart + problem.index),
            problem.kind == .nul ? problem.reason : "\(problem.reason); \(TextEncoding.hint)")
    }
}
