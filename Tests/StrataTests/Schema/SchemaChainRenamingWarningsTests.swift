import Testing

@testable import Strata
@testable import StrataSchema

/// Issue 25, bad input: what a chain's renaming identifiers and versions
/// can get wrong is a located warning (`strata schema check` prints them),
/// never a silent drop.
struct SchemaChainRenamingWarningsTests {
    private static func chain(_ versions: [String]) throws -> SchemaChain {
        SchemaChain(
            versions: try versions.enumerated().map {
                try MappingTestSupport.model("Chat", $0.offset + 1, $0.element)
            })
    }

    private static func warnings(_ chain: SchemaChain) -> [String] {
        chain.renamingWarnings { "\($0).json" }.map(\.description)
    }

    @Test func testAnEntityIdentifierNamingAPropertyIsLocated() throws {
        let chain = try Self.chain([
            #"{"Conversation": {"attributes": {"timeout": {"type": "double", "optional": true}}}}"#,
            #"{"Conversation": {"renamingIdentifier": "timeout", "attributes": {"timeout": {"type": "double", "optional": true}, "muted": {"type": "boolean", "optional": true}}}}"#,
        ])
        #expect(
            Self.warnings(chain) == [
                "2.json: $.entities.Conversation.renamingIdentifier: entity Conversation of "
                    + "version 2 has the renaming identifier 'timeout', which names nothing of "
                    + "version 1 (it is the name of a property there: an entity's identifier "
                    + "names an entity); it is ignored, and the entity is paired by its name"
            ])
    }

    @Test func testAPropertyIdentifierNamingNothingIsLocated() throws {
        let chain = try Self.chain([
            #"{"Note": {"attributes": {"title": {"type": "string"}}}}"#,
            #"{"Note": {"attributes": {"title": {"type": "string", "renamingIdentifier": "caption"}, "body": {"type": "string", "optional": true}}}}"#,
        ])
        let warnings = Self.warnings(chain)
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.hasPrefix(
                "2.json: $.entities.Note.attributes.title.renamingIdentifier: Note.title of "
                    + "version 2 has the renaming identifier 'caption', which names nothing of "
                    + "Note of version 1") == true)
    }

    @Test func testTwoEntitiesClaimingOneAreNamedWithTheOneThatContinuesIt() throws {
        let chain = try Self.chain([
            #"{"Tag": {"attributes": {"label": {"type": "string"}}}}"#,
            #"{"Tag": {"attributes": {"label": {"type": "string"}}}, "Label": {"renamingIdentifier": "Tag", "attributes": {"label": {"type": "string"}}}}"#,
        ])
        #expect(
            Self.warnings(chain) == [
                "2.json: $.entities.Tag: entities Label and Tag of version 2 both claim Tag of "
                    + "version 1; Label continues it, Tag starts empty — give each its own "
                    + "renaming identifier"
            ])
    }

    @Test func testSwappedNamesAndVersionsThatHashAlikeAreWarned() throws {
        let chain = try Self.chain([
            #"{"A": {"attributes": {"x": {"type": "string"}}}, "B": {"attributes": {"y": {"type": "string"}}}}"#,
            #"{"A": {"renamingIdentifier": "B", "attributes": {"y": {"type": "string"}}}, "B": {"renamingIdentifier": "A", "attributes": {"x": {"type": "string"}}}}"#,
            #"{"A": {"renamingIdentifier": "B", "attributes": {"y": {"type": "string", "maxLength": 9}}}, "B": {"renamingIdentifier": "A", "attributes": {"x": {"type": "string"}}}}"#,
        ])
        let warnings = Self.warnings(chain)
        #expect(
            warnings.contains(
                "2.json: $.entities.B: entities A and B swap names between version 1 and 2; each "
                    + "continues the other's objects — check this is meant"))
        #expect(
            warnings.contains {
                $0.hasPrefix("3.json: $: version 3 has the same version hashes as version 2")
            })
        // Version 3 keeps version 2's identifiers, which name version 2's
        // entities: no stray identifier, no second swap.
        #expect(warnings.count == 2, "\(warnings)")
    }

    @Test func testARenameCycleOfThreeIsWarned() throws {
        let chain = try Self.chain([
            #"{"A": {"attributes": {"a": {"type": "string"}}}, "B": {"attributes": {"b": {"type": "string"}}}, "C": {"attributes": {"c": {"type": "string"}}}}"#,
            #"{"A": {"renamingIdentifier": "C", "attributes": {"c": {"type": "string"}}}, "B": {"renamingIdentifier": "A", "attributes": {"a": {"type": "string"}}}, "C": {"renamingIdentifier": "B", "attributes": {"b": {"type": "string"}}}}"#,
        ])
        let warnings = Self.warnings(chain)
        #expect(
            warnings.contains {
                $0.contains("entities A (was C), B (was A), C (was B) rename in a cycle")
            }, "\(warnings)")
    }

    @Test func testAPlainChainHasNoWarnings() throws {
        let chain = try SchemaChain.load(
            directory: MappingTestSupport.schemas.appendingPathComponent("Diary"))
        #expect(Self.warnings(chain).isEmpty)
    }
}
