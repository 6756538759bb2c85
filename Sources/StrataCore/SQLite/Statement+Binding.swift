import CSQLite
import Foundation

extension Statement {
    /// The number of parameters (`?`, `?NNN`, `:name`, `@name`, `$name`).
    ///
    /// With `?NNN` parameters this is the largest index, not a count.
    public var parameterCount: Int32 {
        sqlite3_bind_parameter_count(handle)
    }

    /// Resets the statement and binds `values` to parameters 1, 2, 3…
    ///
    /// - Parameter values: Exactly one value per parameter.
    /// - Throws: ``ResultCode/range`` when the number of values differs from
    ///   ``parameterCount`` (the message gives both counts, not the values);
    ///   ``SQLiteError`` when a bind fails (e.g. ``ResultCode/tooBig``).
    public func bind(_ values: [SQLiteValue]) throws {
        reset()
        guard values.count == Int(parameterCount) else {
            throw SQLiteError(
                code: .range,
                message:
                    "statement has \(parameterCount) parameters, \(values.count) arguments given",
                sql: sql)
        }
        var index: Int32 = 1
        for value in values {
            try bind(value, at: index)
            index += 1
        }
    }

    /// Binds one value to the parameter at `index`.
    ///
    /// Bind only before the first step, or after ``reset()``.
    ///
    /// - Parameters:
    ///   - value: The value; `.blob(Data())` binds an empty blob, not NULL.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/range`` for a bad index).
    public func bind(_ value: SQLiteValue, at index: Int32) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let data): try bind(data, at: index)
        }
    }

    /// Binds a value to the parameter called `name`.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - name: The parameter's name with its prefix (`:id`, `@id`, `$id`),
    ///     or without one, in which case `:`, `@` and `$` are tried in order.
    /// - Throws: ``ResultCode/range`` when no parameter has that name.
    public func bind(_ value: SQLiteValue, named name: String) throws {
        try bind(value, at: parameterIndex(named: name))
    }

    /// The 1-based index of the parameter called `name`.
    ///
    /// - Parameter name: The name, with or without its `:`, `@` or `$` prefix.
    /// - Returns: The index.
    /// - Throws: ``ResultCode/range`` when no parameter has that name.
    public func parameterIndex(named name: String) throws -> Int32 {
        let candidates =
            name.first.map { ":@$".contains($0) } == true
            ? [name] : [":" + name, "@" + name, "$" + name]
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 { return index }
        }
        throw SQLiteError(code: .range, message: "no parameter named \(name)", sql: sql)
    }

    // MARK: - Typed binds

    /// Binds an integer. Does not allocate.
    ///
    /// - Parameters:
    ///   - value: The integer.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/range`` for a bad index).
    public func bind(_ value: Int64, at index: Int32) throws {
        let code = sqlite3_bind_int64(handle, index, value)
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }

    /// Binds an integer. Does not allocate.
    ///
    /// - Parameters:
    ///   - value: The integer.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/range`` for a bad index).
    public func bind(_ value: Int, at index: Int32) throws {
        try bind(Int64(value), at: index)
    }

    /// Binds a double. Does not allocate.
    ///
    /// - Parameters:
    ///   - value: The number. SQLite stores NaN as NULL.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/range`` for a bad index).
    public func bind(_ value: Double, at index: Int32) throws {
        let code = sqlite3_bind_double(handle, index, value)
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }

    /// Binds text; SQLite copies it (`SQLITE_TRANSIENT`).
    ///
    /// - Parameters:
    ///   - value: The string; an empty string binds empty text, not NULL.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/tooBig`` past SQLite's limit).
    public func bind(_ value: String, at index: Int32) throws {
        var value = value
        let code = value.withUTF8 { bytes in
            // A nil base address would bind NULL; an empty C string binds "".
            guard let base = bytes.baseAddress else {
                return sqlite3_bind_text(handle, index, "", 0, strata_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                sqlite3_bind_text64(
                    handle, index, text, sqlite3_uint64(bytes.count), strata_sqlite_transient(),
                    UInt8(SQLITE_UTF8))
            }
        }
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }

    /// Binds UTF-8 text without copying it (`SQLITE_STATIC`): the importer
    /// binds fields straight from its read buffer.
    ///
    /// The bytes must stay valid and unchanged until the statement has been
    /// stepped and this parameter bound again (or the statement reset and
    /// not stepped again); the caller must have checked that they are UTF-8.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 bytes; an empty buffer binds empty text, not NULL.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/tooBig`` past SQLite's limit).
    public func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        let code: CInt
        if let base = bytes.baseAddress, bytes.count > 0 {
            code = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                sqlite3_bind_text64(
                    handle, index, text, sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8))
            }
        } else {
            code = sqlite3_bind_text(handle, index, "", 0, strata_sqlite_transient())
        }
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }

    /// Binds bytes; SQLite copies them (`SQLITE_TRANSIENT`).
    ///
    /// - Parameters:
    ///   - value: The bytes; empty data binds an empty blob, not NULL.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/tooBig`` past SQLite's limit).
    public func bind(_ value: Data, at index: Int32) throws {
        let code = value.withUnsafeBytes { bytes in
            // A nil pointer would bind NULL; a zero-length zeroblob is an empty blob.
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob64(
                handle, index, base, sqlite3_uint64(bytes.count), strata_sqlite_transient())
        }
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }

    /// Binds bytes without copying them (`SQLITE_STATIC`): they must stay
    /// valid and unchanged until the statement is reset or rebound.
    ///
    /// - Parameters:
    ///   - bytes: The bytes; an empty buffer binds an empty blob, not NULL.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/tooBig`` past SQLite's limit).
    package func bind(blob bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        let code: CInt
        if let base = bytes.baseAddress, bytes.count > 0 {
            code = sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), nil)
        } else {
            code = sqlite3_bind_zeroblob(handle, index, 0)
        }
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }

    /// Binds NULL.
    ///
    /// - Parameter index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` (``ResultCode/range`` for a bad index).
    public func bindNull(at index: Int32) throws {
        let code = sqlite3_bind_null(handle, index)
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }
}
