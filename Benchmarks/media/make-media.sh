#!/usr/bin/env bash
# Makes the benchmark media with ffmpeg into Benchmarks/.media (not committed). Re-runnable: existing files are kept
# unless --force. Usage: Benchmarks/media/make-media.sh [--force]
set -euo pipefail
OUT="$(cd "$(dirname "$0")/.." && pwd)/.media"
mkdir -p "$OUT"
FORCE=0
[[ "${1:-}" == "--force" ]] && FORCE=1
FF=(ffmpeg -nostdin -hide_banner -loglevel error -y)

make() {  # name, then ffmpeg arguments
  local name="$1"; shift
  if [[ -f "$OUT/$name" && $FORCE == 0 ]]; then echo "kept  $name"; return; fi
  local started=$SECONDS
  "${FF[@]}" "$@" "$OUT/$name"
  echo "made  $name ($(stat -c %s "$OUT/$name") bytes, $((SECONDS - started)) s)"
}

# 1080p H.264 60 s at about 8 Mbit/s with AAC: faststart and moov-at-end copies.
make h264-1080p-60s-faststart.mp4 -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=60" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60" -map 0:v -map 1:a \
  -c:v libx264 -preset veryfast -b:v 8M -maxrate 8M -bufsize 16M -g 60 -pix_fmt yuv420p -c:a aac -b:a 128k -movflags +faststart
make h264-1080p-60s-moov-at-end.mp4 -i "$OUT/h264-1080p-60s-faststart.mp4" -map 0 -c copy
# 1080p HEVC 10 s.
make hevc-1080p-10s.mp4 -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=10" \
  -c:v libx265 -preset ultrafast -x265-params log-level=error:keyint=60 -b:v 6M -tag:v hvc1 -pix_fmt yuv420p -movflags +faststart
# 4K HEVC 3 s and 4K H.264 3 s.
make hevc-4k-3s.mp4 -f lavfi -i "testsrc2=size=3840x2160:rate=30:duration=3" \
  -c:v libx265 -preset ultrafast -x265-params log-level=error:keyint=30 -b:v 20M -tag:v hvc1 -pix_fmt yuv420p -movflags +faststart
make h264-4k-3s.mp4 -f lavfi -i "testsrc2=size=3840x2160:rate=30:duration=3" \
  -c:v libx264 -preset ultrafast -b:v 20M -g 30 -pix_fmt yuv420p -movflags +faststart
# 10 minutes, low resolution, with audio: a long index (moov of hundreds of KB).
make h264-10min-faststart.mp4 -f lavfi -i "testsrc2=size=320x180:rate=25:duration=600" \
  -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=600" -map 0:v -map 1:a \
  -c:v libx264 -preset ultrafast -g 50 -b:v 200k -pix_fmt yuv420p -c:a aac -b:a 32k -movflags +faststart
make h264-10min-moov-at-end.mp4 -i "$OUT/h264-10min-faststart.mp4" -map 0 -c copy
# Portrait phone-style: stored 1920x1080 with a 90-degree matrix (ffmpeg 5.1 writes the rotate tag only on a remux).
make h264-1080p-5s.mp4 -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=5" \
  -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p -movflags +faststart
make h264-portrait-rotate90.mp4 -i "$OUT/h264-1080p-5s.mp4" -map 0 -c copy -metadata:s:v:0 rotate=90 -movflags +faststart
# A fragmented copy of the 1080p medium: moof/trun per keyframe and a global sidx.
make h264-1080p-60s-fragmented.mp4 -i "$OUT/h264-1080p-60s-faststart.mp4" -map 0 -c copy \
  -movflags frag_keyframe+empty_moov+default_base_moof+global_sidx
# 2 hours of 720p at a low bitrate with a keyframe every 2 s (its moov is megabytes): a 2-minute segment
# stream-copied 60 times, which takes seconds instead of an encode of 2 hours.
if [[ ! -f "$OUT/h264-2h-720p.mp4" || $FORCE == 1 ]]; then
  "${FF[@]}" -f lavfi -i "testsrc2=size=1280x720:rate=25:duration=120" -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=120" \
    -map 0:v -map 1:a -c:v libx264 -preset ultrafast -g 50 -b:v 800k -pix_fmt yuv420p -c:a aac -b:a 64k "$OUT/.segment-720p.mp4"
  for _ in $(seq 60); do echo "file '$OUT/.segment-720p.mp4'"; done > "$OUT/.segments.txt"
fi
make h264-2h-720p.mp4 -f concat -safe 0 -i "$OUT/.segments.txt" -c copy -movflags +faststart
rm -f "$OUT/.segment-720p.mp4" "$OUT/.segments.txt"
ls -la "$OUT"
