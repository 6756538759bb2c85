import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Makes this process the reaper of its orphaned descendants
/// (`prctl(PR_SET_CHILD_SUBREAPER, 1)`), so that ``ChildProcess`` can `wait4`
/// for a program whose launching shell has already exited.
enum Subreaper {
    /// `PR_SET_CHILD_SUBREAPER` from `<linux/prctl.h>`, which Glibc's Swift
    /// module does not export.
    private static let setChildSubreaper: CInt = 36

    /// `prctl` as a fixed-arity C function. The C declaration is variadic,
    /// which Swift does not import; on the Linux ABIs Swift supports, passing
    /// integer arguments this way is identical to the variadic call.
    private typealias Prctl =
        @convention(c) (
            CInt, CUnsignedLong, CUnsignedLong, CUnsignedLong, CUnsignedLong
        ) -> CInt

    /// Turns the subreaper flag on (once; later calls do nothing).
    ///
    /// - Throws: ``BenchError`` (`setup`) when the kernel refuses it or
    ///   `prctl` cannot be found.
    static func enable() throws {
        if isEnabled { return }
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "prctl") else {
            throw BenchError(.setup, "prctl is not available; peak RSS cannot be measured")
        }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        guard prctl(setChildSubreaper, 1, 0, 0, 0) == 0 else {
            throw BenchError(
                .setup,
                "cannot become a child subreaper: \(String(cString: strerror(errno))); "
                    + "peak RSS cannot be measured apart from this runner")
        }
        isEnabled = true
    }

    nonisolated(unsafe) private static var isEnabled = false
}
