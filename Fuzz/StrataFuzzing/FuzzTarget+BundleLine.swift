@testable import StrataCore
@testable import StrataFormats
@testable import StrataStore

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// A decoder over an empty Diary store of the newest version and a
        /// bundle with no media, made once per process.
        struct BundleLineFixture {
            let decoder: BundleObjectDecoder
            let columns: [EntityColumns]

            static let shared: BundleLineFixture? = try? BundleLineFixture()
            /// Held while a target uses ``decoder``: the corpus tests run the
            /// targets that share it in parallel, and a decoder reads one
            /// entity's lines at a time.
            static let lock = NSLock()

            /// The entities the first byte picks from, in order.
            var entities: [String] { columns.map(\.entity) }

            init() throws {
                let (model, folder) = try FuzzFixtures.newestDiaryAndFolder("line")
                defer { try? FileManager.default.removeItem(at: folder) }
                let store = try Store.create(
                    at: folder.appendingPathComponent("D.sqlite"), model: model)
                defer { try? store.close() }
                let bundle = folder.appendingPathComponent("d.zip")
                try BundleArchiver(store: store, model: model).archive(to: bundle)
                let reader = try ZipReader(contentsOf: bundle)
                let mapping = try StoreMapping(model: model, store: store)
                let numbers = Dictionary(store.entityRecords.map { ($0.name, $0.number) }) { a, _ in
                    a
                }
                columns = try mapping.entities.keys.sorted().map { entity in
                    guard let entityMapping = mapping.entities[entity], numbers[entity] != nil
                    else { throw CocoaError(.fileReadCorruptFile) }
                    return try EntityColumns(entity: entity, model: model, mapping: entityMapping)
                }
                decoder = BundleObjectDecoder(
                    path: "d.zip", reader: reader, checksums: nil, mapping: mapping,
                    numbers: numbers, joinLinks: BundleJoinLinks())
            }
        }

        /// The bytes as one line of a bundle's data file (the first byte picks
        /// the entity), read by the fast path and by the general JSON reader:
        /// whatever the fast path takes, the general reader must take too,
        /// into the same objects; what it declines it must leave untouched.
        static func bundleLine(_ data: Data) {
            guard let fixture = BundleLineFixture.shared, let first = data.first else { return }
            BundleLineFixture.lock.lock()
            defer { BundleLineFixture.lock.unlock() }
            let columns = fixture.columns[Int(first) % fixture.columns.count]
            let decoder = fixture.decoder
            decoder.begin(columns)
            let line = [UInt8](data.dropFirst())
            line.withUnsafeBufferPointer { bytes in
                var plain = BundleObjectBatch(columns: columns, file: "f", linksOnly: false)
                var general = BundleObjectBatch(columns: columns, file: "f", linksOnly: false)
                let taken = (try? decoder.addPlain(bytes, number: 1, to: &plain)) ?? false
                let read =
                    (try? decoder.addGeneral(bytes, number: 1, linksOf: nil, to: &general)) != nil
                if taken {
                    // A bug, not bad input: the two readings must agree.
                    precondition(read, "the fast path took a line the general reader refuses")
                    precondition(
                        plain.contents == general.contents,
                        "the fast path read a line otherwise than the general reader")
                } else {
                    precondition(
                        plain.count == 0 && plain.values.isEmpty && plain.bytes.isEmpty
                            && plain.links.isEmpty && plain.toOneKeys.isEmpty,
                        "the fast path declined a line but kept part of it")
                }
            }
        }
    }
#endif
