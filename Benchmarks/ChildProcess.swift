import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a child process and measures it: wall-clock time and peak RSS.
///
/// Peak RSS comes from `wait4`'s `rusage.ru_maxrss` (KiB on Linux). Linux
/// charges a process, at `exec`, with the high-water RSS of the memory it is
/// leaving: a child spawned straight from this runner would report at least
/// the runner's own peak. So the measured program is started by a throwaway
/// `/bin/sh` (`sh -c '"$@" &'`), whose footprint is about 1 MiB: the shell
/// forks the program and exits, and this process, a *child subreaper*
/// (`PR_SET_CHILD_SUBREAPER`), inherits the orphan and reaps it with `wait4`.
/// The runner's memory therefore never counts; the shell's start-up (about a
/// millisecond) is inside the timed span, for every contender alike.
enum ChildProcess {
    /// What one measured run cost.
    struct Sample {
        /// Wall-clock seconds from spawning to reaping the program.
        var seconds: Double
        /// The program's peak resident set, in KiB.
        var peakKiB: Int
    }

    /// Runs `command` to completion and measures it.
    ///
    /// The child reads standard input from `/dev/null` and writes both its
    /// standard output and error to this process's standard error, so that
    /// a contender's own summary (`strata import` prints one) shows beside
    /// the progress lines and the tables alone are on standard output.
    ///
    /// - Returns: The time and peak RSS of the program.
    /// - Throws: ``BenchError`` (`contender`) when it cannot start, exits
    ///   with a non-zero status or is killed by a signal.
    static func run(_ command: ChildCommand) throws -> Sample {
        try Subreaper.enable()
        let launcher = ["/bin/sh", "-c", "\"$@\" &", "sh", command.executable] + command.arguments
        let start = ContinuousClock.now
        let shell = try spawn(launcher)
        var program: (status: CInt, usage: rusage)?
        var shellStatus: CInt?
        while program == nil {
            var status: CInt = 0
            var usage = rusage()
            let pid = wait4(-1, &status, 0, &usage)
            if pid < 0 {
                if errno == EINTR { continue }
                // ECHILD: the shell is gone and left no program behind.
                throw BenchError(
                    .contender,
                    "\(command.executable) did not start (launcher status "
                        + "\(shellStatus.map(describe) ?? "unknown"))")
            }
            if pid == shell {
                shellStatus = status
            } else {
                program = (status, usage)
            }
        }
        let elapsed = ContinuousClock.now - start
        if shellStatus == nil {
            // Reap the launcher too; it exits right after forking.
            var status: CInt = 0
            while waitpid(shell, &status, 0) < 0 && errno == EINTR {}
        }
        guard let program else { throw BenchError(.contender, "lost track of \(command)") }
        guard program.status == 0 else {
            throw BenchError(.contender, "\(command) failed: \(describe(program.status))")
        }
        let components = elapsed.components
        return Sample(
            seconds: Double(components.seconds) + Double(components.attoseconds) / 1e18,
            peakKiB: Int(program.usage.ru_maxrss))
    }

    /// Starts `arguments` (the first is the executable's path).
    private static func spawn(_ arguments: [String]) throws -> pid_t {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)

        var pid: pid_t = 0
        let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard code == 0 else {
            throw BenchError(
                .contender, "cannot start \(arguments[0]): \(String(cString: strerror(code)))")
        }
        return pid
    }

    /// Describes a `wait` status: the exit code or the signal.
    private static func describe(_ status: CInt) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exit status \((status >> 8) & 0xff)" }
        return "killed by signal \(signal)"
    }
}
