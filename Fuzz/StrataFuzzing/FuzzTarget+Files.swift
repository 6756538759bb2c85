#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// Reads the bytes as a schema file: JSON, then the model.
        static func schema(_ data: Data) {
            _ = try? JSONReader.parse(data)
            guard let model = try? SchemaDecoder().decode(data, file: "1.json") else { return }
            _ = model.versionHashes
            _ = try? SchemaEncoder().encode(model)
        }

        /// Reads the bytes as the `contents` XML of an `.xcdatamodel`.
        static func xcdatamodel(_ data: Data) {
            guard let document = try? XMLDocument(data: data, source: "Model.xcdatamodel/contents")
            else { return }
            var reader = XcodeModelVersionReader(
                file: "Model.xcdatamodel/contents", modelName: "Model", version: 1)
            _ = reader.convert(document.root)
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
            _ = try? ModelCache.decodeArchive(data, modelName: "Model")
        }
    }
#endif
