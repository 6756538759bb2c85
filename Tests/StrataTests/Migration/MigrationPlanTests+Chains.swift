import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// Inheritance steps, and plans across a chain of versions.
struct MigrationPlanChainTests {
    typealias M = MigrationTestModels

    private func chain(_ models: [Model]) -> SchemaChain { SchemaChain(versions: models) }

    @Test func testRenameThroughTwoVersionsPlansOneToThreeDirectly() throws {
        let v1 = M.model(1, [M.book([M.attribute("title")])])
        let v2 = M.model(2, [M.book([M.attribute("name", renamedFrom: "title")])])
        // Version 3 renames again; its renamedFrom names version 2's name.
        let v3 = M.model(3, [M.book([M.attribute("heading", renamedFrom: "name")])])
        let plan = try MigrationPlan(chain: chain([v1, v2, v3]), from: 1, to: 3)
        #expect(plan.summary == ["inferred rename-attribute Book.heading (was Book.title)"])
        #expect(
            plan.sql.contains {
                $0.contains("SELECT ZBOOK.Z_PK, ZBOOK.Z_ENT, ZBOOK.Z_OPT, ZBOOK.ZTITLE")
            })
        // Diffing 1 and 3 alone loses the link: a drop plus an add.
        let direct = MigrationPlan(from: v1, to: v3)
        #expect(
            direct.summary == [
                "inferred add-attribute Book.heading", "lossy remove-attribute Book.title",
            ])
    }

    @Test func testStaleRenamedFromFallsBackToTheSameName() throws {
        // Version 3 keeps version 2's renamedFrom, as Xcode copies it along.
        let v1 = M.model(1, [M.book([M.attribute("title")])])
        let v2 = M.model(2, [M.book([M.attribute("name", renamedFrom: "title")])])
        let v3 = M.model(3, [M.book([M.attribute("name", renamedFrom: "title")])])
        let plan = try MigrationPlan(chain: chain([v1, v2, v3]), from: 2, to: 3)
        #expect(plan.isEmpty)
    }

    @Test func testChainRefusesDowngradesAndUnknownVersions() {
        let versions = chain([M.model(1, [M.book()]), M.model(2, [M.book()])])
        #expect(throws: MigrationError.self) { try MigrationPlan(chain: versions, from: 2, to: 1) }
        do {
            _ = try MigrationPlan(chain: versions, from: 1, to: 5)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unknownVersion)
            #expect(
                error.description == "migration error: Library has no version 5 (versions: 1, 2)")
        }
    }

    @Test func testMovingAPropertyUpAndDown() {
        let parent = Entity(name: "Item", attributes: [M.attribute("added", .date)])
        var child = M.book([M.attribute("title"), M.attribute("note")])
        child.parent = "Item"
        var up = parent
        up.attributes.append(M.attribute("note"))
        var upChild = child
        upChild.attributes = [M.attribute("title")]
        let moveUp = MigrationPlan(
            from: M.model(1, [parent, child]), to: M.model(2, [up, upChild]))
        #expect(moveUp.summary == ["inferred move-property Item.note"])
        #expect(moveUp.steps[0].reason.hasPrefix("moves up from Book"))
        let moveDown = MigrationPlan(
            from: M.model(1, [up, upChild]), to: M.model(2, [parent, child]))
        #expect(moveDown.summary == ["lossy move-property Book.note"])
    }

    @Test func testMovingAPropertyUpToANewParentIsAStep() {
        var book = M.book([M.attribute("title")])
        book.parent = "Item"
        let plan = MigrationPlan(
            from: M.model(1, [M.book([M.attribute("title"), M.attribute("note")])]),
            to: M.model(2, [book, Entity(name: "Item", attributes: [M.attribute("note")])]))
        #expect(
            plan.summary == [
                "inferred add-entity Item", "inferred move-property Item.note",
                "inferred renumber-entity Book", "inferred change-parent Book",
            ])
        #expect(plan.steps[1].reason.hasPrefix("moves up from Book"))
    }

    @Test func testJoiningAnotherHierarchyNeedsMapping() {
        let item = Entity(name: "Item", attributes: [M.attribute("added", .date)])
        var book = M.book()
        book.parent = "Item"
        let plan = MigrationPlan(from: M.model(1, [M.book(), item]), to: M.model(2, [book, item]))
        #expect(plan.summary.contains("needs-mapping change-parent Book"))
        let leaving = MigrationPlan(
            from: M.model(1, [book, item]), to: M.model(2, [M.book(), item]))
        #expect(leaving.summary.contains("inferred change-parent Book"))
    }

    @Test func testANewParentOverTwoHierarchiesNeedsMapping() {
        var book = M.book()
        var magazine = Entity(name: "Magazine", attributes: [M.attribute("issue", .integer32)])
        let plain = [book, magazine]
        book.parent = "Publication"
        magazine.parent = "Publication"
        let plan = MigrationPlan(
            from: M.model(1, plain),
            to: M.model(2, [Entity(name: "Publication"), book, magazine]))
        #expect(plan.summary.contains("needs-mapping change-parent Book"))
        #expect(plan.summary.contains("needs-mapping change-parent Magazine"))
        #expect(
            plan.steps.first { $0.kind == .changeParent }?.reason
                == "gets the new parent Publication, which merges the hierarchies of Book and "
                + "Magazine: Core Data cannot merge hierarchies (primary keys of their tables "
                + "could collide)")
        // One hierarchy under a new parent stays inferred.
        let single = MigrationPlan(
            from: M.model(1, [M.book()]), to: M.model(2, [Entity(name: "Publication"), book]))
        #expect(single.summary.contains("inferred change-parent Book"))
    }

    @Test func testBecomingAbstractNeedsMapping() {
        var abstract = M.book()
        abstract.isAbstract = true
        let plan = MigrationPlan(from: M.model(1, [M.book()]), to: M.model(2, [abstract]))
        #expect(plan.summary == ["needs-mapping change-abstract Book"])
        let back = MigrationPlan(from: M.model(1, [abstract]), to: M.model(2, [M.book()]))
        #expect(back.summary == ["inferred change-abstract Book"])
    }
}
