import Testing

@testable import Strata
@testable import StrataValues

struct ByteFieldsTests {
    @Test func testFieldsReadLittleEndianAndZeroPastTheEnd() {
        var fields = ByteFields([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0xFF])
        #expect(fields.uint32() == 0x0403_4B50)
        #expect(fields.uint16() == 0x14)
        #expect(fields.has(1) && !fields.has(2))
        #expect(fields.uint16() == 0)
        #expect(fields.take(4) == [0xFF])
    }

    @Test func testTheDocExampleReadsAZipSignature() {
        var fields = ByteFields([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00])
        let signature = fields.uint32()  // 0x0403_4B50, a zip's local header
        let version = fields.uint16()  // 20
        #expect(signature == 0x0403_4B50 && version == 20)
    }

    @Test func testBothByteOrders() {
        let bytes: [UInt8] = [0x01, 0x02, 0x03]
        #expect(ByteFields.bigEndian(bytes[...]) == 0x01_0203)
        #expect(ByteFields.littleEndian(bytes[...]) == 0x03_0201)
        #expect(ByteFields.littleEndianBytes(0x0102_0304) == [4, 3, 2, 1])
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            #expect(ByteFields.uint16(at: base, bigEndian: true) == 0x0102)
            #expect(ByteFields.uint16(at: base, bigEndian: false) == 0x0201)
        }
    }
}
