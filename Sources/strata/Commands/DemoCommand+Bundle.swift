import Foundation
import Strata

// MARK: - The bundle part of the demo

extension DemoCommand {
    /// Archives the migrated sample diary (entries with photos and a sound
    /// recording) to a bundle, restores the bundle into a new store, and
    /// prints both stores' counts and whether every media file's bytes
    /// came back the same.
    func runDiaryBundle() throws {
        let source = URL(fileURLWithPath: "\(directory)/Diary-v1-migrated.sqlite")
        let bundle = URL(fileURLWithPath: "\(directory)/Diary.zip")
        let restoredURL = URL(fileURLWithPath: "\(directory)/Diary-restored.sqlite")
        let original = try Store.open(at: source, mode: .readOnly)
        defer { try? original.close() }  // Read-only.
        let model = try original.resolveModel(schemas: nil).requiredModel()
        let archived = try BundleArchiver(store: original, model: model).archive(to: bundle)
        Terminal.output("")
        Terminal.output(
            "== Diary bundle: archived \(source.relativePath) to \(bundle.relativePath) "
                + "(\(archived.mediaFiles) media files, \(archived.zipBytes) bytes)")
        try BundleUnarchiver(bundle: bundle).unarchive(to: restoredURL)
        Terminal.output("Restored it into \(restoredURL.relativePath)")
        let restored = try Store.open(at: restoredURL, mode: .readOnly)
        defer { try? restored.close() }  // Read-only.

        let before = try Context(store: original, model: model)
        let after = try Context(store: restored, model: model)
        var rows = [["ENTITY", "ORIGINAL", "RESTORED"]]
        for entity in model.entities.map(\.name).sorted() {
            rows.append([
                entity, String(try before.count(entity)), String(try after.count(entity)),
            ])
        }
        Terminal.output(TextTable.render(rows, indent: "  "))
        var compared = 0
        var equal = 0
        for entity in model.entities {
            let media = entity.attributes.filter { $0.isMedia || $0.allowsExternalStorage }
            guard !media.isEmpty else { continue }
            for object in try before.findAll(entity.name) {
                let twin = try after.object(with: object.objectID)
                for attribute in media {
                    guard let bytes = try object.data(attribute.name) else { continue }
                    compared += 1
                    if try twin.data(attribute.name) == bytes { equal += 1 }
                }
            }
        }
        Terminal.output(
            "Media bytes  \(equal) of \(compared) files identical in the restored store"
                + (equal == compared ? "" : " (MISMATCH)"))
        guard equal == compared else {
            throw CommandFailure(
                message: "\(restoredURL.relativePath): media differ after restoring")
        }
    }
}
