#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/README.md) in their own scratch path and
# runs each in turn for SECONDS seconds: `bash Fuzz/run.sh [SECONDS] [TARGET…]`.
# A crash, timeout or sanitizer report stops the run with a non-zero exit and
# leaves the reproducer in Fuzz/Findings/<target>/; inputs that reach new code
# go to .build/fuzz/corpus/<target>/, never into the committed seeds.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(predicate expression mapping schema xcdatamodel bplist keyedarchive importreaders zip bundleline bundlerules importmapping xcmappingmodel nsexpression webrequest)
scratch=.build/fuzz
swift=${SWIFT:-swift}
# Package.swift leaves the sample apps out of a fuzzing build: they use the model plugin, whose
# tool cannot be built with the sanitizer flags.
export STRATA_FUZZING=1

# The largest input worth trying: a little above the largest seed.
max_len() {
    case $1 in
        predicate | expression) echo 4096 ;;
        bplist) echo 8192 ;;
        xcmappingmodel) echo 65536 ;;
        webrequest) echo 1024 ;;
        *) echo 16384 ;;
    esac
}

for target in "${targets[@]}"; do
    # SwiftPM hands swiftc one -sanitize= flag per sanitizer, in no fixed order, and
    # swiftc keeps only the last: either coverage or ASan would be lost. The combined
    # flag, last, gives both; the --sanitize options make SwiftPM link libFuzzer's main.
    $swift build --scratch-path "$scratch" --sanitize fuzzer --sanitize address \
        -Xswiftc -sanitize=fuzzer,address --product "fuzz-$target" 2>&1 | grep -E "error|warning: unre|Compiling|Build" | grep -v "^\[" || true
    test -x "$scratch/debug/fuzz-$target" || { echo "fuzz-$target did not build" >&2; exit 1; }
done

# FUZZ_RUNS=N (make fuzz-smoke) runs N inputs from a fixed seed instead of
# SECONDS of random ones, so a smoke run in CI does the same work every time:
# it cannot fail on one machine and pass on a faster or slower one.
if [ -n "${FUZZ_RUNS:-}" ]; then
    budget="-runs=$FUZZ_RUNS -seed=1"
else
    budget="-max_total_time=$seconds"
fi

mkdir -p "$scratch/logs"
for target in "${targets[@]}"; do
    corpus=$scratch/corpus/$target findings=Fuzz/Findings/$target
    mkdir -p "$corpus" "$findings" "Fuzz/Regressions/$target"
    log=$scratch/logs/$target.log
    if [ -n "${FUZZ_RUNS:-}" ]; then
        # A fresh working corpus too: what earlier runs kept must not change the work.
        corpus=$scratch/smoke/$target
        rm -rf "$corpus" && mkdir -p "$corpus"
        # Swift seeds its hashing per process; dictionary order (and so the
        # coverage libFuzzer follows) would differ from run to run.
        export SWIFT_DETERMINISTIC_HASHING=1
        echo "fuzz-$target: $FUZZ_RUNS inputs from seed 1"
    else
        echo "fuzz-$target: ${seconds}s"
    fi
    status=0
    # One process on one core (-jobs and -workers unset), niced: others share the machine.
    # Swift's own backtracer would fight ASan's report; libFuzzer prints the stack. Leak
    # checking is off: it reports the lazily made globals of the Swift runtime and
    # Foundation at exit, and a parser's real leak is a retain cycle it cannot see.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} nice -n 10 "$scratch/debug/fuzz-$target" \
        $budget -max_len="$(max_len "$target")" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" \
        "$corpus" "Fuzz/Corpus/$target" "Fuzz/Regressions/$target" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    size=$(find "$corpus" -type f | wc -l)
    echo "  executions ${runs:-?}, ${speed:-?} exec/s, working corpus $size files"
    if [ "$status" -ne 0 ]; then
        grep -E "ERROR|SUMMARY|Test unit written|Fatal error" "$log" | head -20 >&2 || true
        echo "fuzz-$target failed (exit $status); the log is $log, the reproducer in $findings/" >&2
        exit 1
    fi
done
