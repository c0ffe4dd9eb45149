#!/usr/bin/env bash
# Whole-process comparison of `simdenc convert` with glibc iconv (and ICU's uconv if it is
# installed): wall time and peak resident memory from /usr/bin/time, best of 3 runs after a
# warm-up, on ~100 MB inputs made from the corpus with simdenc itself.
#
#   bash cli/bench/compare.sh [WORK_DIR]      (default WORK_DIR: /tmp/simdenc-bench)
#
# Prints a Markdown table. Needs /usr/bin/time (Debian: apt-get install time); uses uconv
# (Debian: apt-get install icu-devtools) if present.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p simdenc-cli
B="$PWD/target/release/simdenc"
W="${1:-/tmp/simdenc-bench}"
mkdir -p "$W"
C=data/corpus
JOBS=$(nproc)

# $1 label, $2 output, $3 target size in bytes, rest: UTF-8 corpus files.
make_input() {
    local label=$1 out=$2 size=$3
    shift 3
    cat "$@" > "$W/unit.utf8"
    "$B" convert -q -t "$label" "$W/unit.utf8" -o "$W/unit.enc"
    local n=$(( size / $(stat -c %s "$W/unit.enc") + 1 ))
    : > "$out"
    for _ in $(seq "$n"); do cat "$W/unit.enc" >> "$out"; done
}

if [ ! -f "$W/ja.sjis" ]; then
    make_input shift_jis "$W/ja.sjis" 100000000 $C/wikipedia/ja.txt $C/lipsum/Japanese-Lipsum.txt
    make_input gbk "$W/zh.gbk" 100000000 $C/wikipedia/zh_cn.txt $C/lipsum/Chinese-Lipsum.txt
    cat $C/wikipedia/*.txt $C/lipsum/*.txt > "$W/unit.utf8"
    : > "$W/mixed.utf8"
    for _ in $(seq 55); do cat "$W/unit.utf8" >> "$W/mixed.utf8"; done
    mkdir -p "$W/many.sjis"
    make_input shift_jis "$W/one.sjis" 1000000 $C/wikipedia/ja.txt $C/lipsum/Japanese-Lipsum.txt
    for i in $(seq -w 1 100); do cp "$W/one.sjis" "$W/many.sjis/$i.txt"; done
fi

# Runs "$@" 4 times (the first as warm-up); prints "wall cpu peak_kib" of the fastest.
measure() {
    local best="" cpu="" peak=""
    for run in 1 2 3 4; do
        /usr/bin/time -f "%e %U %S %M" -o "$W/time.txt" "$@" > /dev/null
        read -r secs user sys kib < "$W/time.txt"
        if [ "$run" -gt 1 ] && { [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; }; then
            best=$secs
            cpu=$(awk "BEGIN{print $user + $sys}")
            peak=$kib
        fi
    done
    echo "$best $cpu $peak"
}

# $1 case, $2 tool, $3 input bytes, rest: command.
row() {
    local name=$1 tool=$2 bytes=$3
    shift 3
    read -r secs cpu kib < <(measure "$@")
    awk -v n="$name" -v t="$tool" -v b="$bytes" -v s="$secs" -v c="$cpu" -v k="$kib" \
        'BEGIN { printf "| %s | %s | %.2f | %.2f | %.0f | %.1f |\n", n, t, s, c, (s > 0 ? b / 1e6 / s : 0), k / 1024 }'
}

size() { stat -c %s "$1"; }
many_size=$(( $(size "$W/one.sjis") * 100 ))
rm -rf "$W/out"
mkdir -p "$W/out"

echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| case | tool | wall s | CPU s (user+sys) | MB/s (wall) | peak RSS MiB |"
echo "|---|---|---:|---:|---:|---:|"
for input in ja.sjis:shift_jis:SHIFT_JIS:Shift_JIS zh.gbk:gbk:GBK:GBK; do
    IFS=: read -r file label glibc icu <<< "$input"
    name="$icu → UTF-8, one $(( $(size "$W/$file") / 1000000 )) MB file"
    row "$name" "simdenc -j 1" "$(size "$W/$file")" "$B" convert -q -j 1 -f "$label" -t utf-8 -o "$W/out/x" "$W/$file"
    row "$name" "iconv" "$(size "$W/$file")" sh -c "iconv -f $glibc -t UTF-8 '$W/$file' > '$W/out/x'"
    if command -v uconv > /dev/null; then
        row "$name" "uconv" "$(size "$W/$file")" sh -c "uconv -f $icu -t UTF-8 '$W/$file' > '$W/out/x'"
    fi
done
name="Shift_JIS → UTF-8, 100 files of 1 MB"
row "$name" "simdenc -j 1 --out-dir" "$many_size" "$B" convert -q -j 1 -f shift_jis --out-dir "$W/out/many" -r "$W/many.sjis"
row "$name" "simdenc -j $JOBS --out-dir" "$many_size" "$B" convert -q -j "$JOBS" -f shift_jis --out-dir "$W/out/many" -r "$W/many.sjis"
row "$name" "iconv, one process per file" "$many_size" sh -c "for f in '$W'/many.sjis/*; do iconv -f SHIFT_JIS -t UTF-8 \"\$f\" > '$W/out/'\$(basename \"\$f\"); done"
row "$name" "iconv, xargs -P $JOBS" "$many_size" sh -c "ls '$W'/many.sjis/* | xargs -P $JOBS -I{} sh -c 'iconv -f SHIFT_JIS -t UTF-8 {} > $W/out/\$(basename {})'"
name="UTF-8 → UTF-16LE, one $(( $(size "$W/mixed.utf8") / 1000000 )) MB file (16 languages)"
row "$name" "simdenc -j 1" "$(size "$W/mixed.utf8")" "$B" convert -q -j 1 -t utf-16le -o "$W/out/x" "$W/mixed.utf8"
row "$name" "simdenc -j $JOBS (pieces)" "$(size "$W/mixed.utf8")" "$B" convert -q -j "$JOBS" -t utf-16le -o "$W/out/x" "$W/mixed.utf8"
row "$name" "iconv" "$(size "$W/mixed.utf8")" sh -c "iconv -f UTF-8 -t UTF-16LE '$W/mixed.utf8' > '$W/out/x'"
if command -v uconv > /dev/null; then
    row "$name" "uconv" "$(size "$W/mixed.utf8")" sh -c "uconv -f UTF-8 -t UTF-16LE '$W/mixed.utf8' > '$W/out/x'"
fi
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
