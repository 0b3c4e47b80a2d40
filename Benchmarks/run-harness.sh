#!/usr/bin/env bash
# One command from a fresh clone: installs what is missing (ffmpeg, ffmpegthumbnailer, matplotlib), builds `thumbs`
# in release, makes the media, and runs the range-efficiency harness (Benchmarks/harness/run.py), which writes
# Benchmarks/results/harness.md, harness.json, bytes-per-tool.png and wall-vs-rtt.png, then the origin kinds
# (Benchmarks/harness/origin-kinds.py: origin-kinds.md and origin-kinds.json), then the HLS and DASH layouts
# (Benchmarks/harness/stream-layouts.py: stream-layouts.md and stream-layouts.json).
# Usage: Benchmarks/run-harness.sh [--quick] [--runs N] [--media NAME ... | --media all]
# Environment: SCRATCH=path builds into that scratch folder instead of .build (e.g. .build-release, to avoid waiting
# on another build's lock); THUMBS=path uses a thumbs binary already built.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

need_apt=()
command -v ffmpeg >/dev/null || need_apt+=(ffmpeg)
command -v ffmpegthumbnailer >/dev/null || need_apt+=(ffmpegthumbnailer)
command -v curl >/dev/null || need_apt+=(curl)
if ((${#need_apt[@]})); then
  SUDO=""; [[ $(id -u) == 0 ]] || SUDO="sudo"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need_apt[@]}"
fi
python3 -c 'import matplotlib' 2>/dev/null || python3 -m pip install --quiet matplotlib \
  || echo "matplotlib could not be installed: the harness writes its tables without charts" >&2

if [[ -z "${THUMBS:-}" ]]; then
  SCRATCH_ARGS=()
  [[ -n "${SCRATCH:-}" ]] && SCRATCH_ARGS=(--scratch-path "$SCRATCH")
  swift build -c release --product thumbs "${SCRATCH_ARGS[@]}"
  THUMBS="$(swift build -c release --show-bin-path "${SCRATCH_ARGS[@]}")/thumbs"
fi

Benchmarks/media/make-media.sh
python3 Benchmarks/harness/run.py --thumbs "$THUMBS" "$@"
# Every medium from each kind of origin (multipart; the whole object for several ranges; 416), at 50 ms / 50 Mbit/s.
python3 Benchmarks/harness/origin-kinds.py --thumbs "$THUMBS"
# Each HLS and DASH layout cut from the 1080p medium, beside ffmpeg reading the same playlist, at 50 ms / 50 Mbit/s.
exec python3 Benchmarks/harness/stream-layouts.py --thumbs "$THUMBS"
