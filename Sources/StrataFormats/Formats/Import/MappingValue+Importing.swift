import Foundation
import StrataCore
import StrataQuery

extension MappingValue {
    /// An input value as an expression sees it (lists of dictionaries are nil).
    init(importing value: RecordValue) {
        switch value {
        case .null, .dictionary: self = .null
        case .text(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .unsignedInteger(let number), .uid(let number): self = .real(Double(number))
        case .real(let number): self = .real(number)
        case .boolean(let flag): self = .boolean(flag)
        case .date(let date): self = .date(date.timeIntervalSinceReferenceDate)
        case .data(let bytes): self = .data(bytes)
        case .array(let items), .set(let items):
            self = .list(items.compactMap { MappingValue(importing: $0.value).text })
        }
    }
}

extension RecordValue {
    /// An expression's result as an input value, converted by the attribute's rules.
    init(_ value: MappingValue) {
        switch value {
        case .null: self = .null
        case .string(let text): self = .text(text)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .boolean(let flag): self = .boolean(flag)
        case .date(let seconds): self = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .data(let bytes): self = .data(bytes)
        case .uuid(let uuid): self = .text(uuid.uuidString)
        case .list(let items): self = .text(items.joined(separator: ", "))
        case .structured(let structured):
            // A single value as itself; an array or a dictionary as JSON text.
            let single = MappingValue(scalar: structured)
            if case .structured = single {
                self = single.text.map { .text($0) } ?? .null
            } else {
                self = RecordValue(single)
            }
        }
    }
}
