import Foundation
import Strata

/// A migration step as `schema diff --json` and `migrate --dry-run --json`
/// print it; `rows` and `resolution` only in the latter.
struct PlanStepJSON: Encodable {
    var index: Int
    var label: String
    var kind: String
    var entity: String
    var property: String?
    var formerEntity: String?
    var formerProperty: String?
    var reason: String
    var suggestedRenamedFrom: String?
    var tables: [String]
    var rows: Int64?
    var resolution: String?

    /// The step at `index` (from 0; printed from 1) of its plan.
    init(_ step: MigrationStep, index: Int, rows: Int64? = nil, resolution: String? = nil) {
        self.index = index + 1
        label = step.label.text
        kind = step.kind.rawValue
        entity = step.entity
        property = step.property
        formerEntity = step.formerEntity
        formerProperty = step.formerProperty
        reason = step.reason
        suggestedRenamedFrom = step.suggestedRenamedFrom
        tables = step.tables
        self.rows = rows
        self.resolution = resolution
    }
}

/// A plan statement with its bound values as JSON.
struct PlanStatementJSON: Encodable {
    /// A bound value: a JSON number or string; bytes as base64 under `blob`.
    enum Argument: Encodable {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)

        init(_ value: AttributeValue) {
            switch value {
            case .integer(let number): self = .integer(number)
            case .real(let number), .date(let number): self = .real(number)
            case .string(let text): self = .text(text)
            case .boolean(let flag): self = .integer(flag ? 1 : 0)
            case .data(let bytes): self = .blob(bytes)
            case .uuid(let uuid): self = .text(uuid.uuidString)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .integer(let number): try container.encode(number)
            case .real(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            case .blob(let bytes): try container.encode(["blob": bytes.base64EncodedString()])
            }
        }
    }

    var sql: String
    var arguments: [Argument]

    init(_ statement: MigrationStatement) {
        sql = statement.sql
        arguments = statement.arguments.map(Argument.init)
    }
}
