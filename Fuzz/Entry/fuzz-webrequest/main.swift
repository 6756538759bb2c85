import StrataFuzzing

// Built with `--sanitize fuzzer` (make fuzz), libFuzzer supplies main and
// calls this for every input; in a plain build this file is the whole
// program, which does nothing.

/// libFuzzer's entry point: one input, `size` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.webrequest.run(start, size)
}
