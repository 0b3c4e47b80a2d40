#!/usr/bin/env bash
# Builds the libFuzzer targets and fuzzes one of them for N seconds (default 600) on one core.
#
#   Fuzz/run-fuzzer.sh [seconds] [target]
#     target: MP4BoxFuzzer (default), LocatorFuzzer, PlannerFuzzer, WebVTTFuzzer, HTTPFuzzer, FrameFuzzer, SPSFuzzer
#     ManifestFuzzer or TransportStreamFuzzer
#   FUZZ_RUNS=N stops after N executions (as well as after the seconds), for figures of a fixed size.
#   FUZZ_SEED=N fixes the random seed, so that a run from the same corpus tries the same inputs.
#
# Seeds (copied into Fuzz/corpus/<target>/, git-ignored; the corpus grows across runs): the fixtures, the tiny
# hand-built Fuzz/seeds/*.mp4 (make-inputs.py) and the real-world files under 200 KB; for LocatorFuzzer the same
# behind two control bytes; for FrameFuzzer the files under 64 KB; for WebVTTFuzzer Fuzz/seeds/webvtt/*.vtt.
# Output is also kept in Fuzz/logs/. Crashes, timeouts and OOMs go to Fuzz/artifacts/ (git-ignored); keep the
# minimised ones in Fuzz/findings/ with a test that replays them.
# Fork mode with one worker: one core, and a crash is recorded without ending the run.
# Set FUZZ_FORK=0 to fuzz in-process instead (also one core; stops at the first crash, as libFuzzer does by default).
# FUZZ_WORKERS=N (in-process only) runs N such fuzzers on the same corpus, one core each, each to FUZZ_RUNS / N
# executions with its own log, and prints their sum: N cores reach a count N times sooner.
set -euo pipefail

seconds="${1:-600}"
target="${2:-MP4BoxFuzzer}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

# --sanitize fuzzer makes SwiftPM link libFuzzer's main instead of renaming the target's own; it only instruments
# the root package's targets, so -Xswiftc repeats the sanitizers for MP4Box (coverage would otherwise be 0).
# One build of every fuzz target, a product at a time (later runs reuse them): a build of the whole package would also
# link the root package's `thumbs`, whose own main clashes with libFuzzer's. The library modules are compiled once.
# FUZZ_PRODUCTS="A B" builds only those (CI builds the one it runs). FUZZ_SKIP_BUILD=1 uses the binaries as they are (a second run beside one that is building would wait for it, and a
# build must never relink a binary that is running).
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    for product in ${FUZZ_PRODUCTS:-MP4BoxFuzzer SPSFuzzer LocatorFuzzer PlannerFuzzer WebVTTFuzzer HTTPFuzzer FrameFuzzer ManifestFuzzer TransportStreamFuzzer MatroskaFuzzer}; do
        swift build -c release -j 2 --scratch-path .build --sanitize fuzzer --sanitize address \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product "$product"
    done
fi

corpus="corpus/$target"
mkdir -p "$corpus" artifacts
seed_files() {  # files under $1 bytes among the fixtures, seeds and real-world media
    find ../Fixtures -maxdepth 1 \( -name '*.mp4' -o -name '*.mov' \) -size -"$1"c
    find seeds -maxdepth 1 -name '*.mp4'
    find ../Fixtures/real-world/media -type f -size -"$1"c
}
framed_seeds() {  # each seed file under 200 KB twice: as NAME1-file behind the bytes HEAD1, as NAME2-file behind HEAD2
    seed_files 200000 | while read -r f; do
        name="$(basename "$f")"
        { printf "$2"; cat "$f"; } > "$corpus/$1-$name"
        { printf "$4"; cat "$f"; } > "$corpus/$3-$name"
    done
}
if [ -z "$(ls -A "$corpus")" ]; then
    case "$target" in
        MP4BoxFuzzer|PlannerFuzzer) seed_files 200000 | while read -r f; do cp "$f" "$corpus/"; done ;;
        FrameFuzzer) seed_files 65536 | while read -r f; do cp "$f" "$corpus/"; done ;;
        LocatorFuzzer)
            # Control bytes: a 128-byte head with the length known, and a 16-byte head with it hidden.
            framed_seeds small-head '\x03\x00' hidden-length '\x08\x41' ;;
        HTTPFuzzer)
            # Options byte, an empty script (every answer honest), the file; and the same behind a short script
            # (a 200 for the whole file, a reset mid-body, a 503) with one retry.
            framed_seeds honest '\x00\x00\x00' faults '\x01\x00\x0c\x01\x00\x00\x00\x06\x00\x04\x20\x04\x00\x00\x08'
            # With 1 KiB ends (options bit 6), so that the first read of files of a few KiB is answered with
            # multipart/byteranges: honest, and with the body's part bent (kind 7: 5 bytes taken out) and one retry.
            framed_seeds multipart '\x40\x00\x00' multipart-bent '\x41\x00\x04\x07\x00\x03\xfb' ;;
        WebVTTFuzzer) cp seeds/webvtt/*.vtt "$corpus/" ;;
        # The real streams' playlists and manifests, and the hand-made ones of seeds/manifests/.
        ManifestFuzzer)
            find ../Fixtures/streams \( -name '*.m3u8' -o -name '*.mpd' \) | while read -r f; do
                cp "$f" "$corpus/$(echo "${f#../Fixtures/streams/}" | tr / -)"
            done
            cp seeds/manifests/* "$corpus/" ;;
        # The first 32 KB of each MPEG-TS file of Fixtures/streams behind a control byte (pieces of 188 bytes, of
        # 1,000): the tables and the first pictures; and the bare TS fixtures, searched.
        TransportStreamFuzzer)
            find ../Fixtures/streams -name '*.ts' | while read -r f; do
                name="$(echo "${f#../Fixtures/streams/}" | tr / -)"
                { printf '\x02'; head -c 32768 "$f"; } > "$corpus/188-$name"
                { printf '\x04'; head -c 32768 "$f"; } > "$corpus/1000-$name"
            done
            # The bare TS fixtures under 300 KB whole, for their search as files: nearest 0.8 s, at or before 2.3 s.
            find ../Fixtures/transport \( -name '*.ts' -o -name '*.m2ts' \) -size -300000c | while read -r f; do
                name="$(basename "$f")"
                { printf '\x12'; cat "$f"; } > "$corpus/file-nearest-$name"
                { printf '\x21'; cat "$f"; } > "$corpus/file-before-$name"
            done ;;
        # The Matroska fixtures behind control bytes: ends of 512 bytes (the SeekHead's ranges read) and pieces of
        # 7 bytes; ends of 64 KiB and pieces of 1,000 from the first cue's Cluster.
        MatroskaFuzzer)
            for f in ../Fixtures/matroska/*.mkv ../Fixtures/matroska/*.webm; do
                name="$(basename "$f")"
                { printf '\x05'; head -c 65536 "$f"; } > "$corpus/small-$name"
                { printf '\x1b'; head -c 65536 "$f"; } > "$corpus/cue-$name"
            done ;;
        SPSFuzzer)
            # Selector byte (modulo 3: H.264, HEVC, AV1), then an H.264 SPS, or the fixtures' AV1 configOBUs (one
            # sequence header OBU each: libaom 8-bit, SVT-AV1 10-bit).
            printf '\x00\x67\x42\xc0\x1e\xd9\x00\xa0\x47\xfe\xc8' > "$corpus/h264-sps-seed"
            printf '\x02\x0a\x0b\x00\x00\x00\x04\x3c\xff\xbc\xda\xf9\x00\x40' > "$corpus/av1-8bit-seed"
            printf '\x02\x0a\x0b\x00\x00\x00\x04\x3c\xfe\xcc\x02\xf8\x40\x40' > "$corpus/av1-10bit-seed" ;;
    esac
fi
# Movies need room for real moov boxes; a thumbnail track repeats one cue shape, so 16 KB (about 250 cues) reaches
# all its code, and longer texts only slow each execution (the reader's time grows with the bytes: three runs of a
# 123 KB track took 300 ms under ASan, of a 1.25 MB one 3.0 s).
max_len=200000
case "$target" in
    WebVTTFuzzer) dict=(-dict=webvtt.dict); max_len=16384 ;;
    # The real manifests here are under 3 KB; 32 KB leaves room for long playlists without slowing every run.
    ManifestFuzzer) dict=(-dict=manifest.dict); max_len=32768 ;;
    SPSFuzzer) dict=() ;;
    # A segment's head (its tables and first pictures) is a few KB to a few tens; past 64 KB only repeats.
    TransportStreamFuzzer) dict=(); max_len=65536 ;;
    # The fixtures' heads: the index and the first Clusters.
    MatroskaFuzzer) dict=(-dict=matroska.dict); max_len=65536 ;;
    *) dict=(-dict=mp4.dict) ;;
esac

# The Swift runtime's own crash reporter would catch the trap before libFuzzer and can hang under ASan.
export SWIFT_BACKTRACE=enable=no
# Leak checks are on: after an input that leaves more allocations than it frees, LeakSanitizer looks for memory no
# longer reachable, and a leak ends the run (in-process) as a crash does.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

workers="${FUZZ_WORKERS:-1}"
if [ "${FUZZ_FORK:-1}" = 1 ]; then
    [ "$workers" = 1 ] || { echo "FUZZ_WORKERS needs FUZZ_FORK=0" >&2; exit 2; }
    mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
else
    mode=()
fi
if [ -n "${FUZZ_RUNS:-}" ]; then mode+=(-runs="$((FUZZ_RUNS / workers))"); fi
# FUZZ_SEED=N fixes libFuzzer's random seed: from the same corpus, the same inputs in the same order (CI's brief run).
if [ -n "${FUZZ_SEED:-}" ]; then mode+=(-seed="$FUZZ_SEED"); fi

mkdir -p logs
stamp="$(date +%Y%m%d-%H%M%S)"
fuzz_one() {
    ".build/release/$target" "$corpus" "${dict[@]}" "${mode[@]}" \
        -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="artifacts/$target-" -print_final_stats=1 2>&1
}
status=0
if [ "$workers" = 1 ]; then
    log="logs/$target-$stamp.log"
    fuzz_one | tee "$log" || status=$?
    logs=("$log")
else
    pids=()
    logs=()
    for worker in $(seq 1 "$workers"); do
        logs+=("logs/$target-$stamp-worker$worker.log")
        fuzz_one > "${logs[-1]}" &
        pids+=($!)
    done
    echo "$workers workers: ${logs[*]}"
    for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
fi

echo
for log in "${logs[@]}"; do
    echo "== final stats ($log)"
    grep -E '^#[0-9]+' "$log" | tail -n 1 || true
    grep -E '^(stat::|Done )|disabled leak detection' "$log" || true
done
if [ "$workers" != 1 ]; then
    echo "executions, all workers: $(cat "${logs[@]}" | awk '/^stat::number_of_executed_units:/ { sum += $2 } END { print sum }')"
fi
echo "corpus: $(ls "$corpus" | wc -l) files, $(du -sh "$corpus" | cut -f1)"
echo "artifacts: $(ls artifacts | wc -l) (crash-/timeout-/oom-/slow-unit- files in Fuzz/artifacts/)"
exit "$status"
