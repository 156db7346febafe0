#!/usr/bin/env bash
# bench/instructions.sh - `make bench-instructions`: instructions per query for every query,
# output and implementation, counted by callgrind around one batch each (deterministic: the
# figure to compare a change with, where timings on a shared machine are noisy).
# Usage: bench/instructions.sh BUILD_DIR TARGET [BATCH]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1 target=$2 n=${3:-8192}
if [ "$target" != "$(cc -dumpmachine)" ]; then
    echo "bench-instructions: valgrind runs native binaries only (target $target)" >&2
    exit 1
fi
out=bench/results/$target
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/cg" \
    "$build/toi_bench" --instructions --sizes "$n" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log" >&2; exit 1; }

# Each client-request dump is one file naming its case (query/output/impl/n) and its total Ir.
for f in "$tmp"/cg*; do
    awk '/^desc: Trigger: Client Request: / { split($0, a, "Request: "); name = a[2] }
         /^(summary|totals):/ { ir = $2 }
         END { if (name != "") print name, ir }' "$f"
done | awk '{ split($1, k, "/"); printf "%s %s %s %.1f\n", k[1], k[2], k[3], $2 / k[4] }' \
    >"$tmp/counts"

# columns in the benchmark's own order: backends, then peers
impls=$("$build/toi_bench" --list | while read -r i; do
    grep -q " $i " "$tmp/counts" && echo "$i"
done)
{
    echo "Instructions per query (callgrind Ir, one batch of $n; $(cc --version | head -1))"
    echo
    printf '| query | output |'
    for i in $impls; do printf ' %s |' "$i"; done
    printf '\n|---|---|'
    for i in $impls; do printf -- '---:|'; done
    printf '\n'
    awk '!seen[$1 " " $2]++ { print $1, $2 }' "$tmp/counts" | while read -r q o; do
        printf '| %s | %s |' "$q" "$o"
        for i in $impls; do
            v=$(awk -v q="$q" -v o="$o" -v i="$i" '$1 == q && $2 == o && $3 == i { print $4 }' \
                "$tmp/counts")
            printf ' %s |' "${v:--}"
        done
        printf '\n'
    done
} | tee "$out/instructions.md"
