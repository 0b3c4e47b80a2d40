#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: installs what it needs, builds, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The tests that need a tool are enabled only where it is (.enabled(if:)); here every tool install-deps.sh installs
# must be where those tests look, so a broken install fails the run instead of skipping them.
absent=()
[ -x /usr/sbin/nginx ] || [ -x /usr/bin/nginx ] || [ -x /usr/local/sbin/nginx ] || absent+=(nginx)
[ -x /usr/bin/chromium ] || absent+=(/usr/bin/chromium)
[ -x /usr/bin/chromedriver ] || absent+=(/usr/bin/chromedriver)
[ -x .build/moto-venv/bin/moto_server ] || absent+=(.build/moto-venv/bin/moto_server)
if [ ${#absent[@]} -gt 0 ]; then
    echo "test.sh: install-deps.sh left these missing, and the tests that need them would be skipped: ${absent[*]}" >&2
    exit 1
fi
# Our own targets build without warnings (dependencies' warnings are theirs). A fresh clone compiles every file, so
# every warning shows here; an incremental build shows only those of the files it recompiles.
log="$(mktemp)"
build_without_warnings() {  # swift build arguments...
    swift build "$@" 2>&1 | tee "$log"
    # (A warning inside a macro's expansion, such as swift-testing's #expect in our tests, is "macro expansion".)
    if grep -E "^$(pwd)/(Sources|Tests|Examples)/.*: warning:|^macro expansion .*: warning:" "$log"; then
        echo "test.sh: our targets have the warnings above" >&2
        exit 1
    fi
}
build_without_warnings --build-tests
if [ $# -eq 0 ]; then
    swift test --skip-build --skip "ServeBurstTests|ReadTimeoutTimingTests|CancellationTimingTests"
    # The burst tests keep both cores busy while they measure a server's memory: run alone, so neither they nor
    # the timing tests beside them are measured under the other's load.
    swift test --skip-build --filter ServeBurstTests
    # Read timeouts against a server paced in real time: alone, as a loaded parallel run can starve the pacing.
    swift test --skip-build --filter ReadTimeoutTimingTests
    # How soon cancelled pictures let go, timed: alone, as the threads they measure are shared with every other test.
    swift test --skip-build --filter CancellationTimingTests
else
    swift test --skip-build "$@"
fi
# The documentation of every library module, with broken links and undocumented parameters as errors.
scripts/docs.sh
# The README's example, as a package of its own that depends on this one by path.
scripts/check-example.sh
# A brief fuzz of the playlist and manifest readers, the MPEG-TS demuxer and the Matroska reader (in-process, so a
# crash fails the run).
# From a fresh clone's corpus (the seeds) with a fixed seed and count, each tries the same inputs every time: a run that
# passed once passes again, and new inputs are for the longer runs of Fuzz/README.md.
if [ $# -eq 0 ]; then
    FUZZ_FORK=0 FUZZ_SEED=1 FUZZ_RUNS=200000 FUZZ_PRODUCTS=ManifestFuzzer Fuzz/run-fuzzer.sh 120 ManifestFuzzer
    FUZZ_FORK=0 FUZZ_SEED=1 FUZZ_RUNS=60000 FUZZ_PRODUCTS=TransportStreamFuzzer Fuzz/run-fuzzer.sh 150 TransportStreamFuzzer
    FUZZ_FORK=0 FUZZ_SEED=1 FUZZ_RUNS=60000 FUZZ_PRODUCTS=MatroskaFuzzer Fuzz/run-fuzzer.sh 120 MatroskaFuzzer
fi
# The FFmpegDecoders trait's build (libavcodec for what the default decoders refuse), into the same .build, where only
# our own targets compile again, and the suites it changes: the decoders', both media corpora's (pictures where the
# default build gives errors), the interlaced stream's, Matroska's, the transport stream files', the streams', the
# reference thumbnails' and the command line's thumbnail and info. The .build is left with the trait's build.
if [ $# -eq 0 ]; then
    build_without_warnings --build-tests --traits FFmpegDecoders
    swift test --skip-build --filter "FrameDecodeTests\\.|RealWorldConformanceTests|RealWorldInfoTests|InterlacedStreamTests|MatroskaThumbnailTests|TransportFileThumbnailTests|StreamThumbnailTests|ReferenceThumbnailTests|ThumbnailCommandTests|InfoCommandTests"
fi
