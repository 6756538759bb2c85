import Foundation

#if DEBUG
    @testable import Strata
#endif

/// The parsers under fuzzing, each run by the libFuzzer executable under
/// its own name (`fuzz-<name>`, see Fuzz/README.md).
///
/// Every target takes arbitrary bytes and must return normally: a thrown
/// error is the expected answer to bad input, a crash, a hang or a
/// sanitizer report is a bug. The same entry point runs the committed seeds
/// and reproducers under `swift test`, without the sanitizer.
///
/// The parsers are internal to Strata, so the targets reach them with
/// `@testable import`, which only debug builds allow; a release build
/// compiles the targets to no-ops.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `FetchPredicate(_:)`, then checking, SQL compiling and in-memory
    /// evaluation against the Diary model.
    case predicate
    /// The mapping-expression parser, checker and evaluator.
    case expression
    /// A whole mapping file (`<from>-<to>.mapping.json`) between Diary 1 and 2.
    case mapping
    /// The schema JSON reader and decoder (`Schemas/<Model>/<n>.json`).
    case schema
    /// An `.xcdatamodel` version's `contents` XML.
    case xcdatamodel
    /// The binary property list reader (`bplist00`; store metadata).
    case bplist
    /// The keyed-archive reader and the model-cache decoder
    /// (`Z_MODELCACHE`, uncompressed).
    case keyedarchive
    /// The import readers (CSV, txt lines and blocks, JSON, NDJSON, plists)
    /// on the bytes as an input file.
    case importreaders
    /// The zip reader, extraction and the bundle checks, on the bytes as a
    /// zip (the archives `import`, `unarchive` and Day One imports read).
    case zip
    /// One line of a bundle's data file, read by the decoder's fast path
    /// and by the general JSON reader, which must agree.
    case bundleline
    /// One line of a bundle's data file checked against the schema's rules
    /// as the loader checks it, against a plain re-check of every rule.
    case bundlerules
    /// A `strata-import/1` mapping file (`import --mapping`): its
    /// expressions checked when it loads and against a CSV header, then
    /// evaluated.
    case importmapping
    /// A `.xcmappingmodel`'s `xcmapping.xml`: the mapping model, its model
    /// snapshots and its archived value expressions.
    case xcmappingmodel
    /// A keyed archive of an `NSExpression` read into the shared
    /// expression tree.
    case nsexpression
    /// A request to the web view (`strata serve`): path, query, `Range`
    /// and `Host`, answered by a site on a small Diary store.
    case webrequest

    /// The target a fuzzing process feeds: the one its program's name names
    /// (`…/fuzz-<target>`, the links Fuzz/run.sh makes to the one
    /// executable), else the one `STRATA_FUZZ_TARGET` names.
    public static func named(
        program: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> FuzzTarget? {
        let name = program.split(separator: "/").last.map(String.init) ?? ""
        if name.hasPrefix("fuzz-"), let target = FuzzTarget(rawValue: String(name.dropFirst(5))) {
            return target
        }
        return environment["STRATA_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))
    }

    /// Feeds `bytes` to the target's parser; errors are swallowed.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        #if DEBUG
            let data = Data(bytes)
            switch self {
            case .predicate: FuzzTarget.predicate(data)
            case .expression: FuzzTarget.expression(data)
            case .mapping: FuzzTarget.mapping(data)
            case .schema: FuzzTarget.schema(data)
            case .xcdatamodel: FuzzTarget.xcdatamodel(data)
            case .bplist: FuzzTarget.bplist(data)
            case .keyedarchive: FuzzTarget.keyedArchive(data)
            case .importreaders: FuzzTarget.importReaders(data)
            case .zip: FuzzTarget.zip(data)
            case .bundleline: FuzzTarget.bundleLine(data)
            case .bundlerules: FuzzTarget.bundleRules(data)
            case .importmapping: FuzzTarget.importMapping(data)
            case .xcmappingmodel: FuzzTarget.xcmappingModel(data)
            case .nsexpression: FuzzTarget.nsExpression(data)
            case .webrequest: FuzzTarget.webRequest(data)
            }
        #endif
    }

    /// Feeds the `size` bytes at `start` (libFuzzer's calling convention).
    public func run(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        guard let start else {
            run(UnsafeRawBufferPointer(start: nil, count: 0))
            return 0
        }
        run(UnsafeRawBufferPointer(start: start, count: size))
        return 0
    }
}
