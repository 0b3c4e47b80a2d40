#!/usr/bin/env bash
# Writes the Matroska and WebM fixtures, remuxed (no re-encoding) from the MP4 fixtures by two independent muxers,
# and their expectations from ffprobe:
#
#   Fixtures/matroska/<name>.<layout>.mkv|webm    the files
#   Fixtures/matroska/expectations.json          per file: its MP4 source, DocType, duration, and ffprobe's packet
#                                                list of the video stream (pts in ms, keyframe flag, size)
#
#   usage: Fixtures/matroska/make-matroska.sh   (from anywhere; needs ffmpeg, ffprobe, mkvmerge, python3)
#
# The frames are the MP4 fixtures' own, so the MP4s' ffmpeg references (Fixtures/thumbnails) are the pictures
# of the same times here. Layouts: ffmpeg's Cues after the Clusters (its default), ffmpeg's `-cues_to_front 1`,
# mkvmerge's (Cues after the Clusters, audio laced, a SeekHead naming a second one).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FIX="$(cd "$HERE/.." && pwd)"
for tool in ffmpeg ffprobe mkvmerge python3; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found" >&2; exit 1; }
done
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }

ff -i "$FIX/h264-bframes.mp4" -map 0:v -c copy -fflags +bitexact "$HERE/h264-bframes.cues-back.mkv"
ff -i "$FIX/h264-bframes.mp4" -map 0:v -c copy -fflags +bitexact -cues_to_front 1 "$HERE/h264-bframes.cues-front.mkv"
ff -i "$FIX/pasp-anamorphic.mp4" -map 0:v -c copy -fflags +bitexact "$HERE/pasp-anamorphic.cues-back.mkv"
ff -i "$FIX/av1-8bit.mp4" -map 0:v -c copy -fflags +bitexact "$HERE/av1-8bit.cues-back.webm"
mkvmerge --quiet --disable-track-statistics-tags -o "$HERE/audio-video.mkvmerge.mkv" "$FIX/audio-video.mp4"
mkvmerge --quiet --disable-track-statistics-tags -o "$HERE/hevc-8bit.mkvmerge.mkv" "$FIX/hevc-8bit.mp4"

python3 - "$HERE" <<'PY'
import json, os, subprocess, sys
here = sys.argv[1]
out = {"files": []}
for name in sorted(os.listdir(here)):
    if not name.endswith((".mkv", ".webm")):
        continue
    path = os.path.join(here, name)
    probe = json.loads(subprocess.check_output(
        ["ffprobe", "-v", "error", "-show_format", "-show_streams", "-show_packets", "-of", "json", path]))
    video = next(s for s in probe["streams"] if s["codec_type"] == "video")
    packets = [p for p in probe["packets"] if p["stream_index"] == video["index"]]
    other = [p for p in probe["packets"] if p["stream_index"] != video["index"]]
    out["files"].append({
        "name": name,
        "source": name.split(".")[0] + ".mp4",
        "formatName": probe["format"]["format_name"],
        "duration": float(probe["format"]["duration"]),
        "codecName": video["codec_name"],
        "width": video["width"], "height": video["height"],
        "sampleAspectRatio": video.get("sample_aspect_ratio", "1:1"),
        # Matroska's time base is 1/1000 here (ffmpeg's and mkvmerge's TimestampScale of 1 ms).
        "videoPackets": [[int(p["pts"]), "K" in p["flags"], int(p["size"])] for p in packets],
        "otherPacketCount": len(other),
    })
    assert video["time_base"] == "1/1000", (name, video["time_base"])
with open(os.path.join(here, "expectations.json"), "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
for entry in out["files"]:
    keys = sum(1 for p in entry["videoPackets"] if p[1])
    print(f'{entry["name"]:36} {entry["codecName"]:5} {len(entry["videoPackets"]):4} packets {keys:3} keyframes, '
          f'{entry["otherPacketCount"]} other')
PY
