#!/usr/bin/env bash
# Builds the MP4Box libFuzzer target and fuzzes it for N seconds (default 600) on one core.
#
#   Fuzz/run-fuzzer.sh [seconds] [target]     target: MP4BoxFuzzer (default) or SPSFuzzer
#
# Seeds: Fixtures/*.mp4 and the tiny hand-built Fuzz/seeds/*.mp4 (make-inputs.py), copied into
# Fuzz/corpus/<target>/ (git-ignored; the corpus grows across runs). Output is also kept in Fuzz/logs/.
# Crashes, timeouts and OOMs go to Fuzz/artifacts/ (git-ignored); keep the minimised ones in Fuzz/findings/.
# Fork mode with one worker: one core, and a crash is recorded without ending the run.
# Set FUZZ_FORK=0 to fuzz in-process instead (also one core; stops at the first crash, as libFuzzer does by default).
set -euo pipefail

seconds="${1:-600}"
target="${2:-MP4BoxFuzzer}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

# --sanitize fuzzer makes SwiftPM link libFuzzer's main instead of renaming the target's own; it only instruments
# the root package's targets, so -Xswiftc repeats the sanitizers for MP4Box (coverage would otherwise be 0).
swift build -c release -j 1 --scratch-path .build --sanitize fuzzer --sanitize address \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product "$target"

corpus="corpus/$target"
mkdir -p "$corpus" artifacts
if [ "$target" = MP4BoxFuzzer ]; then
    cp -n ../Fixtures/*.mp4 seeds/*.mp4 "$corpus"/ 2>/dev/null || true
    dict=(-dict=mp4.dict)
else
    dict=()
    [ -n "$(ls -A "$corpus")" ] || printf '\x00\x67\x42\xc0\x1e\xd9\x00\xa0\x47\xfe\xc8' > "$corpus/h264-sps-seed"
fi

# The Swift runtime's own crash reporter would catch the trap before libFuzzer and can hang under ASan.
export SWIFT_BACKTRACE=enable=no
# Leak checks are off: the Swift runtime's one-time caches read as leaks and would stop the run.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"

if [ "${FUZZ_FORK:-1}" = 1 ]; then
    mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
else
    mode=()
fi

mkdir -p logs
log="logs/$target-$(date +%Y%m%d-%H%M%S).log"
status=0
".build/release/$target" "$corpus" "${dict[@]}" "${mode[@]}" \
    -max_total_time="$seconds" -max_len=200000 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=artifacts/ -print_final_stats=1 2>&1 | tee "$log" || status=$?

echo
echo "== final stats ($log)"
grep -E '^#[0-9]+' "$log" | tail -n 1 || true
grep -E '^(stat::|Done )' "$log" || true
echo "corpus: $(ls "$corpus" | wc -l) files, $(du -sh "$corpus" | cut -f1)"
echo "artifacts: $(ls artifacts | wc -l) (crash-/timeout-/oom-/slow-unit- files in Fuzz/artifacts/)"
exit "$status"
