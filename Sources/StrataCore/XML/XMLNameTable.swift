import CLibXML2
import Foundation

/// Element names already turned into `String`s during one push parse, so a
/// name that occurs a million times is decoded once.
///
/// libxml2 keeps element names in its parser dictionary, so the same name
/// usually comes with the same pointer; the pointer is only a hint, though:
/// a hit is confirmed by comparing the bytes, so a reused address can never
/// give a wrong name. The table is bounded; names past its size are decoded
/// each time.
struct XMLNameTable {
    /// The most names kept: a document has a handful of element names, and
    /// one with thousands must not make every lookup a long scan.
    static let capacity = 64

    private var pointers: [UnsafePointer<xmlChar>] = []
    private var names: [String] = []
    /// The names' bytes, each terminated by a NUL, for `xmlStrEqual`.
    private var bytes: [[xmlChar]] = []

    /// The `String` for `local`, or `prefix:local` when there is a prefix.
    mutating func name(
        local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?
    ) -> String {
        guard let local else { return "" }
        guard prefix == nil else { return Self.decode(local, prefix) }
        for index in pointers.indices where pointers[index] == local {
            let same = bytes[index].withUnsafeBufferPointer {
                strata_xmlStrEqual(local, $0.baseAddress) == 1
            }
            if same { return names[index] }
        }
        let name = Self.decode(local, nil)
        if pointers.count < Self.capacity {
            pointers.append(local)
            names.append(name)
            bytes.append(Array(name.utf8) + [0])
        }
        return name
    }

    /// `prefix:local`, or `local` without a prefix.
    static func decode(
        _ local: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?
    ) -> String {
        let name = local.map { String(cString: $0) } ?? ""
        guard let prefix else { return name }
        return String(cString: prefix) + ":" + name
    }
}
