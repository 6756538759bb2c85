import Foundation
import Strata
import Testing

/// Every attribute type through a generated property, a save and a fetch on
/// a fresh connection.
struct TypedRoundTripTests {
    @Test func testEveryAttributeTypeRoundTripsThroughGeneratedProperties() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        let when = Date(timeIntervalSinceReferenceDate: 123_456_789.25)
        let identifier = UUID()
        let bytes = Data([0, 1, 2, 254, 255])
        let link = try #require(URL(string: "https://example.com/a%20b?q=1"))

        let sample = Sample(context: fixture.context)
        sample.text = "Grüße, \"quoted\"\n"
        sample.small = Int16.min
        sample.medium = Int32.max
        sample.large = Int64.min
        sample.price = Decimal(string: "1234.56")
        sample.ratio = 0.1
        sample.weight = 1.5
        sample.flag = true
        sample.when = when
        sample.bytes = bytes
        sample.identifier = identifier
        sample.link = link
        sample.count = 999
        sample.title = "Typed"
        sample.enabled = false
        try fixture.context.save()

        let fetched = try #require(try fixture.reopened().fetch(Sample.self).first)
        #expect(fetched.text == "Grüße, \"quoted\"\n")
        #expect(fetched.small == Int16.min)
        #expect(fetched.medium == Int32.max)
        #expect(fetched.large == Int64.min)
        #expect(fetched.price == Decimal(string: "1234.56"))
        #expect(fetched.ratio == 0.1)
        #expect(fetched.weight == 1.5)
        #expect(fetched.flag == true)
        #expect(fetched.when == when)
        #expect(fetched.bytes == bytes)
        #expect(fetched.identifier == identifier)
        #expect(fetched.link == link)
        #expect(fetched.count == 999)
        #expect(fetched.title == "Typed")
        #expect(fetched.enabled == false)
        #expect(fetched.token == sample.token)
    }

    @Test func testDefaultsApplyAndNilClearsOptionalValues() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        let sample = Sample(context: fixture.context)
        #expect(sample.count == 7)
        #expect(sample.title == "Untitled")
        #expect(sample.enabled == true)
        #expect(abs(sample.created.timeIntervalSinceNow) < 3600)
        sample.text = "gone soon"
        sample.text = nil
        try fixture.context.save()
        let fetched = try #require(try fixture.reopened().fetch(Sample.self).first)
        #expect(fetched.text == nil)
        #expect(fetched.small == nil)
        #expect(fetched.count == 7)
    }

    @Test func testAValueOfAnotherTypeInTheStoreReadsAsNilOrTheDefault() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        let sample = Sample(context: fixture.context)
        // What an untyped writer could leave: a URI string that is no URL.
        try sample.setValue(.string(""), forKey: "link")
        #expect(try sample.value(forKey: "link") == .string(""))
        #expect(sample.link == nil)
    }
}
