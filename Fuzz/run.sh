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

# SwiftPM hands swiftc one -sanitize= flag per sanitizer, in no fixed order, and swiftc keeps
# only the last: either coverage or ASan would be lost. The combined flag, last, gives both; the
# --sanitize options make SwiftPM link libFuzzer's main.
$swift build --scratch-path "$scratch" --sanitize fuzzer --sanitize address \
    -Xswiftc -sanitize=fuzzer,address --product fuzz-strata 2>&1 |
    grep -E "error|warning: unre|Compiling|Build" | grep -v "^\[" || true
test -x "$scratch/debug/fuzz-strata" || { echo "fuzz-strata did not build" >&2; exit 1; }
# Every target, as FuzzTarget lists them, unless some were named.
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(STRATA_FUZZ_TARGET=list "$scratch/debug/fuzz-strata")
[ ${#targets[@]} -gt 0 ] || { echo "fuzz-strata listed no targets" >&2; exit 1; }
# One executable, a name per target: it feeds the target it is called by.
for target in "${targets[@]}"; do
    ln -sf fuzz-strata "$scratch/debug/fuzz-$target"
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
# Swift seeds its hashing per process; dictionary order (and so the coverage libFuzzer follows)
# would differ from run to run of a smoke run.
[ -z "${FUZZ_RUNS:-}" ] || export SWIFT_DETERMINISTIC_HASHING=1

# fuzz_one TARGET: runs one target and prints what it did; fails when it found something.
fuzz_one() {
    local target=$1 corpus=$scratch/corpus/$1 findings=Fuzz/Findings/$1 log=$scratch/logs/$1.log
    mkdir -p "$corpus" "$findings" "Fuzz/Regressions/$target"
    if [ -n "${FUZZ_RUNS:-}" ]; then
        # A fresh working corpus too: what earlier runs kept must not change the work.
        corpus=$scratch/smoke/$target
        rm -rf "$corpus" && mkdir -p "$corpus"
        echo "fuzz-$target: $FUZZ_RUNS inputs from seed 1"
    else
        echo "fuzz-$target: ${seconds}s"
    fi
    local status=0
    # One process per target (-jobs and -workers unset), niced: others share the machine.
    # Swift's own backtracer would fight ASan's report; libFuzzer prints the stack. Leak
    # checking is off: it reports the lazily made globals of the Swift runtime and
    # Foundation at exit, and a parser's real leak is a retain cycle it cannot see.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} nice -n 10 "$scratch/debug/fuzz-$target" \
        $budget -max_len="$(max_len "$target")" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" \
        "$corpus" "Fuzz/Corpus/$target" "Fuzz/Regressions/$target" >"$log" 2>&1 || status=$?
    local runs speed size
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    size=$(find "$corpus" -type f | wc -l)
    echo "  executions ${runs:-?}, ${speed:-?} exec/s, working corpus $size files"
    if [ "$status" -ne 0 ]; then
        grep -E "ERROR|SUMMARY|Test unit written|Fatal error" "$log" | head -20 || true
        echo "fuzz-$target failed (exit $status); the log is $log, the reproducer in $findings/"
        return 1
    fi
}

# A timed run fuzzes one target at a time (each gets the machine for its SECONDS); a smoke run,
# whose work is fixed, runs as many at once as there are cores (FUZZ_JOBS overrides), each
# process's report printed whole and in the targets' order.
jobs=${FUZZ_JOBS:-1}
[ -z "${FUZZ_RUNS:-}" ] || jobs=${FUZZ_JOBS:-$(nproc)}
if [ "$jobs" -le 1 ]; then
    for target in "${targets[@]}"; do
        fuzz_one "$target" || exit 1
    done
    exit 0
fi
for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    rm -f "$scratch/logs/$target.passed"
    (fuzz_one "$target" >"$scratch/logs/$target.report" 2>&1 && touch "$scratch/logs/$target.passed") &
done
wait
failed=0
for target in "${targets[@]}"; do
    if [ -e "$scratch/logs/$target.passed" ]; then
        cat "$scratch/logs/$target.report"
    else
        cat "$scratch/logs/$target.report" >&2
        failed=1
    fi
done
exit "$failed"
