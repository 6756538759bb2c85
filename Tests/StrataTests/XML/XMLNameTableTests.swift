import CLibXML2
import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct XMLNameTableTests {
    @Test func testNamesAreDecodedAndAHitIsCheckedByContent() {
        var table = XMLNameTable()
        // One buffer standing for a name pointer libxml2 reuses for another name.
        let storage = UnsafeMutablePointer<xmlChar>.allocate(capacity: 8)
        defer { storage.deallocate() }
        for (index, byte) in Array("dict".utf8 + [0]).enumerated() { storage[index] = byte }
        #expect(table.name(local: storage, prefix: nil) == "dict")
        #expect(table.name(local: storage, prefix: nil) == "dict")
        for (index, byte) in Array("key".utf8 + [0]).enumerated() { storage[index] = byte }
        #expect(table.name(local: storage, prefix: nil) == "key")
        #expect(table.name(local: nil, prefix: nil) == "")
    }

    @Test func testPrefixedNamesAreQualified() {
        var table = XMLNameTable()
        let local = Array("entity".utf8 + [0])
        let prefix = Array("x".utf8 + [0])
        let name = local.withUnsafeBufferPointer { local in
            prefix.withUnsafeBufferPointer { prefix in
                table.name(local: local.baseAddress, prefix: prefix.baseAddress)
            }
        }
        #expect(name == "x:entity")
    }
}
