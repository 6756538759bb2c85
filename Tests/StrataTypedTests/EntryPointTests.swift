import Foundation
import Testing

/// The program shapes the README and the ObjectContext article show for
/// Swift 6, type-checked as an app's target would be (`swiftc`, Swift 6
/// mode, warnings as errors): a `@main` type, and a `main.swift` whose
/// top-level context is used from a `@MainActor` function. The examples
/// are kept here as text (DocExampleCoverageTests finds their lines) since
/// a test target can hold neither a `@main` type nor top-level code.
struct EntryPointTests {
    /// The README's first example: the entry point of a program calling
    /// `keepADiary`, which READMEDocExamples.swift holds as the README
    /// writes it.
    static let readmeEntryPoint = """
        import Foundation
        import Strata

        @main
        struct DiaryApp {
            static func main() throws {
                let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                try keepADiary(
                    schemas: folder.appendingPathComponent("Schemas/Diary"),
                    storeURL: folder.appendingPathComponent("Diary.sqlite"))
            }
        }
        """

    /// The ObjectContext article's `main.swift`, with the generated Diary
    /// classes.
    static let objectContextMain = """
        // main.swift
        import Strata

        let context = try StoreContainer(model: DiaryModel.self).context

        @MainActor
        func printTitles() throws {
            let entries = try context.findAll(DiaryEntry.self, sortedBy: .descending("title"))
            print(entries.map { $0.title ?? "" })
        }

        try printTitles()
        """

    /// Issue 29's spellings in a `main.swift`, with the generated Notes
    /// classes (TypedStoreContainerTests runs them).
    static let notesMain = """
        import Foundation
        import Strata

        let url = URL(fileURLWithPath: CommandLine.arguments[1])
        let seeded = try StoreContainer(
            model: NotesModel.self, seed: .records(url, format: .json, entity: "Note"))
        let context = try StoreContainer(model: NotesModel.self).context

        @MainActor
        func report() throws {
            let notes = try context.findAll(Note.self, sortedBy: SortDescriptor("date", ascending: false))
            let first = try context.findFirst(Note.self, where: "title == %@", "x")
            let some = try context.fetch(
                Note.self, where: "title == %@ OR title == %@", "a", "b",
                sortedBy: SortDescriptor("title", ascending: true))
            print(notes.count, try context.count(Note.self), first?.title ?? "", some.count)
        }

        try report()
        """

    static func generated(_ name: String) throws -> String {
        try String(
            contentsOf: TypedFixture.testsFolder.appendingPathComponent("Generated/\(name).swift"),
            encoding: .utf8)
    }

    @Test func testTheReadmeEntryPointCompilesWithItsFunction() throws {
        let function = try String(
            contentsOf: TypedFixture.packageRoot.appendingPathComponent(
                "Tests/StrataTests/DocExamples/READMEDocExamples.swift"),
            encoding: .utf8)
        let outcome = try SwiftCompiler().typecheck(
            files: ["DiaryApp.swift": Self.readmeEntryPoint, "KeepADiary.swift": function],
            module: "ReadmeApp")
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.isEmpty, "\(outcome.output)")
    }

    @Test func testTopLevelCodeCallingAMainActorFunctionCompiles() throws {
        let compiler = try SwiftCompiler()
        for (main, model) in [
            (Self.objectContextMain, "DiaryModel"), (Self.notesMain, "NotesModel"),
        ] {
            let outcome = try compiler.typecheck(
                files: ["main.swift": main, "\(model).swift": try Self.generated(model)],
                module: "TopLevelApp")
            #expect(outcome.status == 0, "\(outcome.output)")
            #expect(outcome.output.isEmpty, "\(outcome.output)")
        }
    }

    /// Without `@MainActor` the function may run on any thread, so Swift 6
    /// refuses it the top-level context: the error the docs explain.
    @Test func testANonisolatedFunctionCannotUseTheTopLevelContext() throws {
        let main = Self.objectContextMain.replacingOccurrences(of: "@MainActor\n", with: "")
        #expect(main != Self.objectContextMain)
        let outcome = try SwiftCompiler().typecheck(
            files: ["main.swift": main, "DiaryModel.swift": try Self.generated("DiaryModel")],
            module: "TopLevelApp")
        #expect(outcome.status != 0)
        #expect(
            outcome.output.contains(
                "main actor-isolated let 'context' can not be referenced "
                    + "from a nonisolated context"),
            "\(outcome.output)")
    }
}
