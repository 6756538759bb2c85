import Foundation

extension CSVReader {
    /// Keeps the unread bytes (`position..<end`), moved to the buffer's
    /// start, and reads more after them; sets `reachedEnd` when nothing
    /// comes.
    ///
    /// The buffer grows only when one record fills it, and never past the
    /// record limit (plus the byte that shows where the record ends); it
    /// shrinks back once such a record is gone.
    func refill() throws {
        let kept = end - position
        if position > 0 {
            if kept > 0 { memmove(buffer, buffer + position, kept) }
            position = 0
            end = kept
        }
        if capacity > initialCapacity, kept <= initialCapacity / 2 {
            resize(to: initialCapacity)
        } else if end == capacity {
            let (limit, overflow) = limits.maximumRecordBytes.addingReportingOverflow(2)
            let largest = overflow ? Int.max : max(limit, initialCapacity)
            let (doubled, doubleOverflow) = capacity.multipliedReportingOverflow(by: 2)
            let grown = min(doubleOverflow ? Int.max : doubled, largest)
            guard grown > capacity else {
                // Not reached: a record this long was refused before.
                throw ImportError(
                    .tooLarge, at: recordPosition,
                    "the record is longer than \(limits.maximumRecordBytes) bytes")
            }
            resize(to: grown)
        }
        let count = try input.read(
            into: UnsafeMutableBufferPointer(start: buffer + end, count: capacity - end))
        if count == 0 { reachedEnd = true } else { end += count }
    }

    /// Moves the buffered bytes (`0..<end`, `end` ≤ `newCapacity`) into a
    /// buffer of `newCapacity` bytes.
    private func resize(to newCapacity: Int) {
        let resized = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        resized.update(from: buffer, count: end)
        buffer.deallocate()
        buffer = resized
        capacity = newCapacity
    }

    /// Throws when the record being scanned, still unfinished at the
    /// buffer's end, is already over a size limit, leaving the reader to skip
    /// the rest of it on the next call.
    func refuseIncompleteRecordOverLimits(fieldStart: Int) throws {
        let error: ImportError
        if end - position > limits.maximumRecordBytes {
            error = ImportError(
                .tooLarge, at: recordPosition,
                "the record is longer than \(limits.maximumRecordBytes) bytes")
        } else if end - fieldStart > limits.maximumFieldBytes,
            end - fieldStart > rawFieldAllowance(startingWith: buffer[fieldStart])
        {
            error = ImportError(
                .tooLarge, at: locate(fieldStart),
                "the field is longer than \(limits.maximumFieldBytes) bytes")
        } else {
            return
        }
        spanCount = 0
        skipsOversizedRecord = true
        throw error
    }

    /// The most bytes a field may take in the file: the limit, or for a
    /// quoted field twice that plus its quotes, since every quote inside
    /// is doubled. The exact check of the content comes once the field ends.
    private func rawFieldAllowance(startingWith first: UInt8) -> Int {
        let limit = limits.maximumFieldBytes
        guard Int(first) == quoteValue else { return limit }
        let (doubled, overflow) = limit.multipliedReportingOverflow(by: 2)
        return overflow || doubled > Int.max - 2 ? Int.max : doubled + 2
    }

    /// Steps over the rest of a record refused by
    /// ``refuseIncompleteRecordOverLimits(fieldStart:)``, from its start at
    /// `position`, without keeping it: only its quotes and line breaks count.
    func skipRestOfOversizedRecord() throws {
        enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
        skipsOversizedRecord = false
        var state = State.fieldStart
        var previousWasCarriageReturn = false
        let quote = quoteValue
        let delimiter = delimiterValue
        while true {
            var index = position
            while index < end {
                let byte = buffer[index]
                let value = Int(byte)
                let isBreak = byte == Self.lineFeed || byte == Self.carriageReturn
                switch state {
                case .fieldStart, .unquoted, .quoteInQuoted:
                    if isBreak {
                        line += 1
                        consume(upTo: index + 1)
                        if byte == Self.carriageReturn { skipsLineFeed = true }
                        return
                    }
                    if value == delimiter {
                        state = .fieldStart
                    } else if value == quote {
                        // Opens at a field's start, undoubles inside quotes,
                        // and is plain text elsewhere.
                        state = state == .unquoted ? .unquoted : .quoted
                    } else {
                        state = .unquoted
                    }
                case .quoted:
                    if value == quote {
                        state = .quoteInQuoted
                    } else if byte == Self.carriageReturn
                        || (byte == Self.lineFeed && !previousWasCarriageReturn)
                    {
                        line += 1
                    }
                }
                previousWasCarriageReturn = byte == Self.carriageReturn
                index += 1
            }
            consume(upTo: end)
            if reachedEnd { return }
            try refill()
        }
    }

    /// The buffered text from `position` up to at least the end of the first
    /// non-empty line (line breaks inside quotes do not end it), or up to
    /// 64 KiB of it, for guessing the delimiter.
    func firstLine() throws -> UnsafeBufferPointer<UInt8> {
        let enough = 64 * 1024
        while true {
            var quoted = false
            var sawText = false
            var index = position
            while index < end {
                let byte = buffer[index]
                if Int(byte) == quoteValue {
                    quoted.toggle()
                } else if !quoted, byte == Self.lineFeed || byte == Self.carriageReturn {
                    if sawText { break }
                    index += 1
                    continue
                }
                sawText = true
                index += 1
            }
            if index < end || reachedEnd || end - position >= enough {
                // Leading line breaks would hide the delimiters: skip them.
                var start = position
                while start < index,
                    buffer[start] == Self.lineFeed || buffer[start] == Self.carriageReturn
                {
                    start += 1
                }
                return UnsafeBufferPointer(start: buffer + start, count: index - start)
            }
            try refill()
        }
    }
}
