@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// Reads the bytes as a schema file: JSON, then the model.
        static func schema(_ data: Data) {
            _ = try? JSONReader.parse(data)
            guard let model = try? SchemaDecoder().decode(data, file: "1.json") else { return }
            useModel(model)
        }

        /// Reads the bytes as the `contents` XML of an `.xcdatamodel`.
        static func xcdatamodel(_ data: Data) {
            guard let document = try? XMLDocument(data: data, source: "Model.xcdatamodel/contents")
            else { return }
            var reader = XcodeModelVersionReader(
                file: "Model.xcdatamodel/contents", modelName: "Model", version: 1)
            let model = reader.convert(document.root)
            // What `schema from-xcdatamodel` does with a version that converts.
            guard reader.issues.isEmpty else { return }
            useModel(model)
        }

        /// What the commands do with a model read from a file or a store:
        /// its hashes (`info`), its layout (`query`, `create`), its JSON.
        static func useModel(_ model: Model) {
            _ = model.versionHashes
            _ = StoreLayout(model: model)
            _ = try? SchemaEncoder().encode(model)
        }

        /// Reads the bytes as a binary property list, then as store metadata.
        static func bplist(_ data: Data) {
            _ = try? BinaryPropertyList.decode(data)
            _ = try? StoreMetadata(uuid: "FUZZ", plist: data, path: "fuzz.sqlite")
        }

        /// Reads the bytes as a keyed archive of a managed object model
        /// (an inflated `Z_MODELCACHE`).
        static func keyedArchive(_ data: Data) {
            if let archive = try? KeyedArchive(data: data) {
                _ = try? archive.topObject()
            }
            if let model = try? ModelCache.decodeArchive(data, modelName: "Model") {
                useModel(model)
            }
        }
    }
#endif
