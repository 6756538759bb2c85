#!/bin/bash
# CPU time of two `strata` builds on the commands the import-csv, export-csv,
# archive and unarchive benchmarks time, alternating which goes first, ROUNDS
# rounds: a quiet, load-tolerant check of "within N % of an earlier build"
# (user+system seconds move far less than wall time on a shared machine).
#
# Usage (from the package root, after `strata-bench import-csv export-csv
# archive unarchive` has filled Benchmarks/corpus at 1,000,000 rows):
#   Benchmarks/ab-cpu.sh OLD_STRATA NEW_STRATA [ROUNDS=5]
set -eu
old=${1:?usage: ab-cpu.sh OLD_STRATA NEW_STRATA [ROUNDS]}
new=${2:?usage: ab-cpu.sh OLD_STRATA NEW_STRATA [ROUNDS]}
rounds=${3:-5}
root=$(pwd)
corpus=$root/Benchmarks/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # binary benchmark label
  rm -rf "$work"/s.sqlite* "$work"/out.csv "$work"/a.zip "$work"/u.sqlite*
  case $2 in
    import-csv) set -- "$1" "$2" "$3" import "$work/s.sqlite" \
      "$corpus/contacts-1000000/contacts.csv" --entity Contact --schemas "$root/Schemas/Contacts" ;;
    export-csv) set -- "$1" "$2" "$3" export "$corpus/export-contacts-1000000.sqlite" \
      --entity Contact -o "$work/out.csv" \
      --fields firstName,lastName,nickname,email,birthday,score,notes ;;
    archive) set -- "$1" "$2" "$3" archive "$corpus/diary-100000-2000/Diary.sqlite" -o "$work/a.zip" ;;
    unarchive) set -- "$1" "$2" "$3" unarchive "$corpus/diary-100000-2000.zip" "$work/u.sqlite" ;;
  esac
  local binary=$1 name=$2 label=$3
  shift 3
  /usr/bin/time -f "%U %S %e" -o "$work/time" "$binary" "$@" > /dev/null 2>&1 \
    || echo "FAILED: $label $name" >&2
  echo "$name $label $(cat "$work/time")"
}

for round in $(seq 1 "$rounds"); do
  for name in import-csv export-csv archive unarchive; do
    if [ $((round % 2)) -eq 1 ]; then
      run "$old" "$name" old; run "$new" "$name" new
    else
      run "$new" "$name" new; run "$old" "$name" old
    fi
  done
done | awk '{ cpu[$1" "$2] += $3 + $4; wall[$1" "$2] += $5; n[$1" "$2]++ }
  END { for (k in cpu) printf "%-16s cpu %.3f s  wall %.3f s  (mean of %d)\n", k, cpu[k] / n[k], wall[k] / n[k], n[k] }' | sort
