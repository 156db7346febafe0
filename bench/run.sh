#!/usr/bin/env bash
# bench/run.sh - `make bench`: the full benchmark run, whole runs per implementation timed side
# by side with hyperfine, and the CSV, text, target table and plot in bench/results/<target>/.
# Usage: bench/run.sh BUILD_DIR TARGET [RUNNER]; a RUNNER (qemu-user) marks the run emulated.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1 target=$2
read -r -a runner <<<"${3:-}"
bin=$build/toi_bench

if [ ${#runner[@]} -gt 0 ]; then
    # Under emulation every figure is meaningless as performance: smaller sizes, fewer
    # repetitions, and the label on every output so nobody quotes them.
    out=bench/results/$target-emulated
    label="EMULATED under ${runner[0]}"
    args=(--sizes 8,512,8192,65536 --reps 3 --min-queries 8192 --threads 0 --label "$label")
    hf_args=(--sizes 8192 --reps 1 --min-queries 8192 --output all)
    hf_runs=3
else
    out=bench/results/$target
    label=""
    args=()
    hf_args=(--sizes 8192,65536 --reps 3 --min-queries 262144)
    hf_runs=5
fi
mkdir -p "$out"
# The machine, first in each text result (the figures depend on it).
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
fam=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1)
model=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -1)
cpu_line="cpu: ${cpu:-unknown}${fam:+ (family $fam, model $model)}, $(nproc) cores"

echo "== toi_bench: every query, backend and peer -> $out/bench.txt, bench.csv, targets.md"
{ echo "$cpu_line"; "${runner[@]}" "$bin" "${args[@]}" --csv "$out/bench.csv" \
    --targets "$out/targets.md"; } | tee "$out/bench.txt"

echo
echo "== toi_bench_mesh: meshes (build, refit, queries, cost model) -> $out/mesh.txt (and targets.md)"
if [ ${#runner[@]} -gt 0 ]; then
    { echo "$label: not performance figures."; "${runner[@]}" "$build/toi_bench_mesh" --quick; } |
        tee "$out/mesh.txt"
else
    { echo "$cpu_line"; "$build/toi_bench_mesh" --targets "$out/targets.md"; } |
        tee "$out/mesh.txt"
fi

echo
echo "== toi_bench_capsules: capsule queries per backend -> $out/capsules.txt (and targets.md)"
if [ ${#runner[@]} -gt 0 ]; then
    { echo "$label: not performance figures."; "${runner[@]}" "$build/toi_bench_capsules" --quick; } |
        tee "$out/capsules.txt"
else
    { echo "$cpu_line"; "$build/toi_bench_capsules" --targets "$out/targets.md"; } |
        tee "$out/capsules.txt"
fi

echo
echo "== toi_bench_boxes: oriented boxes, linear and rotating motion -> $out/boxes.txt (and targets.md)"
if [ ${#runner[@]} -gt 0 ]; then
    { echo "$label: not performance figures."; "${runner[@]}" "$build/toi_bench_boxes" --quick; } |
        tee "$out/boxes.txt"
else
    { echo "$cpu_line"; "$build/toi_bench_boxes" --targets "$out/targets.md"; } |
        tee "$out/boxes.txt"
fi

# Whole runs per implementation, side by side: the same sphere-sphere workload for each (both
# outputs, an L2-sized and an L3-sized batch, 4 x 262144 queries per case, scene generation
# and checking included).
echo
echo "== hyperfine: whole sphere-sphere runs per implementation -> $out/hyperfine.md"
cmds=()
for impl in $("${runner[@]}" "$bin" --list); do
    cmds+=(-n "$impl" "${runner[*]} $bin --impl $impl --query spheres ${hf_args[*]}")
done
hyperfine -N --warmup 1 --runs "$hf_runs" --style basic \
    --export-markdown "$out/hyperfine.md" "${cmds[@]}"
if [ -n "$label" ]; then
    { echo "**$label: not performance figures.**"; echo; cat "$out/hyperfine.md"; } \
        >"$out/hyperfine.md.tmp" && mv "$out/hyperfine.md.tmp" "$out/hyperfine.md"
fi

echo
echo "== plot -> $out/ns_per_query.png"
cc_version=$(${CC:-cc} --version | head -1)
title="toi $(basename "$target"): ${label:-native}; $cpu; $cc_version"
bench/plot.sh "$out/bench.csv" "$out/ns_per_query.png" "$title"
echo "done: $out"
