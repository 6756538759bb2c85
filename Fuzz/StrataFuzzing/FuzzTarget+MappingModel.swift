@testable import StrataQuery
@testable import StrataStore

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// Reads the bytes as a `.xcmappingmodel`'s `xcmapping.xml`, then
        /// what a converter reads of it: the snapshots' hashes and layout,
        /// every value expression as a tree and as text.
        static func xcmappingModel(_ data: Data) {
            guard
                let model = try? XcodeMappingModelReader().readXML(
                    data: data, file: "Fuzz.xcmappingmodel/xcmapping.xml")
            else { return }
            for snapshot in [model.sourceModel, model.destinationModel] {
                if let snapshot { useModel(snapshot) }
            }
            for mapping in model.entityMappings {
                for property in mapping.attributeMappings + mapping.relationshipMappings {
                    if let expression = property.valueExpression {
                        useExpression(expression)
                    }
                }
            }
        }

        /// Reads the bytes as the keyed archive of an `NSExpression`.
        static func nsExpression(_ data: Data) {
            guard let root = try? KeyedArchive(data: data).topObject() else { return }
            useExpression(root)
        }

        /// An archived expression as the converter uses it: the tree, its
        /// text for messages, its shape.
        static func useExpression(_ object: ArchivedObject) {
            guard let node = try? ExpressionNode(archived: object) else { return }
            _ = node.expressionText
            _ = node.description
            _ = node.height
        }
    }
#endif
