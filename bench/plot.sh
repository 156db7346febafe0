#!/usr/bin/env bash
# bench/plot.sh - ns per query against batch size from toi_bench's CSV: one panel per query and
# output, one line per backend and peer, and the bandwidth floor dashed. Needs gnuplot.
# Usage: bench/plot.sh BENCH.csv OUT.png TITLE
set -euo pipefail
csv=$1 png=$2 title=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CSV columns: label,query,output,n,impl,bytes,median_ns,min_ns,...; one data file per line.
awk -F, -v d="$tmp" 'NR > 1 { f = d "/" $2 "_" $3 "_" $5 ".dat"; print $4, $7 > f }' "$csv"
queries=$(awk -F, 'NR > 1 && !seen[$2]++ { print $2 }' "$csv")
impls=$(awk -F, 'NR > 1 && $5 != "floor" && !seen[$5]++ { print $5 }' "$csv")
nq=$(echo "$queries" | wc -w)

{
    echo "set terminal pngcairo size 1400,$((380 * nq + 60)) font ',10'"
    echo "set output '$png'"
    echo "set multiplot layout $nq,2 title \"${title//\"/}\" noenhanced"
    echo "set logscale x 2"
    echo "set logscale y 10"
    echo "set format x '2^{%L}'"
    echo "set xlabel 'batch size (queries)'"
    echo "set ylabel 'ns per query (median)'"
    echo "set grid"
    echo "set key outside right"
    for q in $queries; do
        for o in t all; do
            plot=""
            for i in $impls; do
                f=$tmp/${q}_${o}_$i.dat
                [ -s "$f" ] && plot="$plot'$f' using 1:2 with linespoints title '$i', "
            done
            f=$tmp/${q}_${o}_floor.dat
            [ -s "$f" ] && plot="$plot'$f' using 1:2 with lines dt 2 lc rgb 'black' title 'bandwidth floor', "
            [ -n "$plot" ] || continue
            echo "set title '$q, output: $o' noenhanced"
            echo "plot ${plot%, }"
        done
    done
    echo "unset multiplot"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
