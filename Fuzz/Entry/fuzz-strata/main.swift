import Foundation
import StrataFuzzing

// Built only by a fuzzing build (Fuzz/run.sh, `--sanitize fuzzer`): libFuzzer
// supplies main and calls the two functions below.
//
// One executable holds every target, so a fuzzing build links once; the
// target is the name it runs under (`fuzz-<target>`, a link Fuzz/run.sh
// makes) or, run as `fuzz-strata`, the STRATA_FUZZ_TARGET variable.
// `STRATA_FUZZ_TARGET=list fuzz-strata` prints the targets' names, one a
// line, and exits: run.sh's list of every target is that.

/// The target this process feeds, chosen once before the first input.
nonisolated(unsafe) private var selected: FuzzTarget?

/// libFuzzer's set-up hook: picks the target from the program's name.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    if ProcessInfo.processInfo.environment["STRATA_FUZZ_TARGET"] == "list" {
        print(FuzzTarget.allCases.map(\.rawValue).joined(separator: "\n"))
        exit(0)
    }
    let program = argv?.pointee?.pointee.map { String(cString: $0) } ?? ""
    selected = FuzzTarget.named(program: program)
    guard selected != nil else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        let message =
            "fuzz-strata: run as fuzz-<target> or set STRATA_FUZZ_TARGET to one of \(names)\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(2)
    }
    return 0
}

/// libFuzzer's entry point: one input, `size` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected?.run(start, size) ?? 0
}
