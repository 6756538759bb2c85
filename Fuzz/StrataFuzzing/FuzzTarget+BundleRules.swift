@testable import StrataFormats
@testable import StrataSchema

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// The bytes as one line of a bundle's data file (the first byte picks
        /// the entity of Diary's newest version), read as the loader reads it
        /// (the fast path, else the general reader) and checked against the
        /// schema's rules (``AttributeCheck``, through the decoder's
        /// `checkRules`). The verdict must be the one a plain re-check of
        /// every rule gives — lengths counted in characters, never settled
        /// by byte counts — and the same for either reading of the line.
        static func bundleRules(_ data: Data) {
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
                var verdicts: [String?] = []
                for (wasRead, batch) in [(taken, plain), (read, general)] where wasRead {
                    let checked: String?
                    do {
                        try decoder.checkRules(ofLastIn: batch)
                        checked = nil
                    } catch let error as BundleObjectDecoder.LineError {
                        checked = error.message
                    } catch {
                        preconditionFailure("checkRules threw \(error)")
                    }
                    let plainly = recheck(batch)
                    precondition(
                        (checked == nil) == (plainly == nil),
                        "the rule check says \(checked ?? "ok"), a plain re-check \(plainly ?? "ok")"
                    )
                    if let checked, let plainly {
                        precondition(
                            checked.hasPrefix(plainly + " "),
                            "the rule check names \(checked), a plain re-check \(plainly)")
                    }
                    verdicts.append(checked)
                }
                if verdicts.count == 2 {
                    precondition(
                        verdicts[0] == verdicts[1], "the two readings of a line are checked apart")
                }
            }
        }

        /// The name of the first attribute of the batch's last object that
        /// breaks a rule, by the plainest reading of each rule; nil if none.
        private static func recheck(_ batch: BundleObjectBatch) -> String? {
            let columns = batch.columns
            guard batch.count > 0 else { return nil }
            let object = batch.count - 1
            let first = object * columns.attributes.count
            for (slot, check) in columns.checks {
                let value = batch.values[first + slot]
                var broken = false
                switch value.kind {
                case .null:
                    let medium = batch.media.contains { $0.object == object && $0.slot == slot }
                    broken = !check.isOptional && !medium
                case .text:
                    let start = Int(value.payload)
                    let text = String(
                        decoding: batch.bytes[start..<(start + value.count)], as: UTF8.self)
                    let length = text.count
                    broken =
                        check.minLength.map { length < $0 } ?? false
                        || check.maxLength.map { length > $0 } ?? false
                        || ((try? check.pattern?.matchesWhole(text)) ?? false) == false
                            && check.pattern != nil
                case .integer, .real:
                    let number =
                        value.kind == .integer
                        ? Double(value.payload)
                        : Double(bitPattern: UInt64(bitPattern: value.payload))
                    broken =
                        (check.type == .date && !AttributeCheck.dates.contains(number))
                        || check.minValue.map { number < $0 } ?? false
                        || check.maxValue.map { number > $0 } ?? false
                case .blob:
                    broken = false
                }
                if broken { return check.name }
            }
            return nil
        }
    }
#endif
