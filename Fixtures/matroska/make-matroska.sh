#!/usr/bin/env bash
# Writes the Matroska and WebM fixtures, remuxed (no re-encoding) from the MP4 fixtures by two independent muxers,
# and their expectations from ffprobe:
#
#   Fixtures/matroska/<name>.<layout>.mkv|webm    the files
#   Fixtures/matroska/expectations.json          per file: DocType, duration, ffprobe's packet list of the video
#                                                stream (pts in ms, keyframe flag, size), and four roles: the
#                                                keyframe nearest the middle, the frame at the middle, the first and
#                                                the last frame (the time to ask, exact or not, the pts shown)
#   Fixtures/matroska/dash/vp9-cues-*/           DASH with WebM: manifest.mpd (SegmentBase) and video.webm
#   Fixtures/matroska/alpha/vp8|vp9.webm          transparent WebM, with libvpx's frames 0 and 25 (.colour.png,
#                                                .alpha.png)
#   Fixtures/matroska/vp8.cues-back.framemd5      ffmpeg's digest of every VP8 frame (pts in ms)
#   Fixtures/matroska/references/<name>.<role>.png  ffmpeg's picture of each role's frame, fitted in 160x160 by
#                                                Fixtures/reference_pictures.py (as Fixtures/thumbnails)
#
#   usage: Fixtures/matroska/make-matroska.sh   (from anywhere; needs ffmpeg, ffprobe, mkvmerge, python3;
#          the chromium recordings are made apart, by record-chromium.py)
#
# Most are the MP4 fixtures' frames remuxed (no re-encoding); VP8, which MP4 does not carry, is encoded here by
# libvpx (single-threaded, GOP of 12). Layouts: ffmpeg's Cues after the Clusters (its default), ffmpeg's
# `-cues_to_front 1`, mkvmerge's (Cues after the Clusters, audio laced, a SeekHead naming a second one). ffmpeg's
# files are the same bytes on every run with the same build; mkvmerge writes a new SegmentUID and date each time.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FIX="$(cd "$HERE/.." && pwd)"
for tool in ffmpeg ffprobe mkvmerge mkvinfo python3; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found" >&2; exit 1; }
done
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }

ff -i "$FIX/h264-bframes.mp4" -map 0:v -c copy -fflags +bitexact "$HERE/h264-bframes.cues-back.mkv"
ff -i "$FIX/h264-bframes.mp4" -map 0:v -c copy -fflags +bitexact -cues_to_front 1 "$HERE/h264-bframes.cues-front.mkv"
ff -i "$FIX/pasp-anamorphic.mp4" -map 0:v -c copy -fflags +bitexact "$HERE/pasp-anamorphic.cues-back.mkv"
ff -i "$FIX/av1-8bit.mp4" -map 0:v -c copy -fflags +bitexact "$HERE/av1-8bit.cues-back.webm"
mkvmerge --quiet --disable-track-statistics-tags -o "$HERE/audio-video.mkvmerge.mkv" "$FIX/audio-video.mp4"
mkvmerge --quiet --disable-track-statistics-tags -o "$HERE/hevc-8bit.mkvmerge.mkv" "$FIX/hevc-8bit.mp4"
ff -i "$FIX/vp9-8bit.mp4" -map 0:v -c copy -fflags +bitexact "$HERE/vp9-8bit.cues-back.webm"
mkvmerge --quiet --disable-track-statistics-tags --webm -o "$HERE/vp9-10bit.mkvmerge.webm" "$FIX/vp9-10bit.mp4"
# Without Cues: ffmpeg's live mode (a Cluster at each keyframe, a Segment of unknown size), mkvmerge's --no-cues
# with Clusters of 300 ms that do not start at keyframes.
ff -i "$FIX/vp9-8bit.mp4" -map 0:v -c copy -live 1 -fflags +bitexact "$HERE/vp9-8bit.live.webm"
mkvmerge --quiet --disable-track-statistics-tags --no-cues --cluster-length 300ms -o "$HERE/hevc-8bit.mkvmerge-nocues.mkv" \
  "$FIX/hevc-8bit.mp4"
# chromium-vp8.webm and chromium-vp9.webm (6 s) and chromium-vp9-60s.webm (60 s, a Cluster every 4 s): recorded once by
# record-chromium.py (a live capture differs from run to run, so they are kept as they were recorded and only read
# here).
ff -f lavfi -i "testsrc2=size=320x240:rate=25:duration=3" -c:v libvpx -threads 1 -deadline good -cpu-used 4 \
  -b:v 0 -crf 20 -qmin 4 -qmax 50 -g 12 -keyint_min 12 -auto-alt-ref 1 -lag-in-frames 16 -flags:v +bitexact \
  -fflags +bitexact "$HERE/vp8.cues-back.webm"

# Transparent VP8 and VP9 (alpha in BlockAdditions, AlphaMode 1), as browsers and ffmpeg write them: testsrc2 with a
# moving horizontal ramp as its alpha, 160x120 (no scaling at 160), a keyframe every 12 frames. The references are
# decoded by libvpx (ffmpeg's own VP8 and VP9 decoders drop alpha): frame 0 and frame 25 (1 s, after the keyframe
# at frame 24), their colour through Fixtures/reference_pictures.py's chain and their alpha plane as it is.
mkdir -p "$HERE/alpha"
for codec in vp8 vp9; do
  encoder=libvpx; [ "$codec" = vp9 ] && encoder=libvpx-vp9
  ff -f lavfi -i "testsrc2=size=160x120:rate=25:duration=2" \
    -f lavfi -i "nullsrc=size=160x120:rate=25:duration=2,geq=lum='255*mod(X+T*40\,W)/W':cb=128:cr=128" \
    -filter_complex "[1:v]format=gray[a];[0:v][a]alphamerge,format=yuva420p" -c:v "$encoder" -threads 1 -b:v 0 -crf 20 \
    -g 12 -auto-alt-ref 0 -fflags +bitexact -flags:v +bitexact "$HERE/alpha/$codec.webm"
done
python3 - "$HERE/alpha" "$FIX" <<'PY'
import subprocess, sys
folder, fixtures = sys.argv[1], sys.argv[2]
sys.path.insert(0, fixtures)
import reference_pictures as refs
for codec, decoder in (("vp8", "libvpx"), ("vp9", "libvpx-vp9")):
    path = f"{folder}/{codec}.webm"
    chain = refs.filter_chain((160, 120), False, *refs.colour_of(None, "tv", 160, 120), None, "bt709")
    for frame in (0, 25):
        select = f"select=eq(n\\,{frame})"
        command = refs.ffmpeg_command(path, 0, select, chain, f"{folder}/{codec}.{frame}.colour.png")
        command[command.index("-i"):command.index("-i")] = ["-c:v", decoder]
        subprocess.run(command, check=True)
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-c:v", decoder, "-i", path, "-vf",
                        f"{select},alphaextract,format=gray", "-frames:v", "1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
                        f"{folder}/{codec}.{frame}.alpha.png"], check=True)
PY

# DASH with WebM (SegmentBase: an Initialization range and an indexRange onto the Cues), of vp9-8bit's frames: ffmpeg's
# `-dash 1` WebM with its Cues after the Clusters and the manifest its webm_dash_manifest muxer writes; and with
# `-cues_to_front 1` (Cues before the Clusters, as YouTube's WebM has them), whose manifest is written here from the
# file's top-level elements (ffmpeg's manifest muxer cannot read Cues at the front); the script checks that this
# reading gives ffmpeg's ranges for the first file.
mkdir -p "$HERE/dash/vp9-cues-back" "$HERE/dash/vp9-cues-front"
ff -i "$HERE/vp9-8bit.cues-back.webm" -map 0:v -c copy -dash 1 -fflags +bitexact "$HERE/dash/vp9-cues-back/video.webm"
ff -i "$HERE/vp9-8bit.cues-back.webm" -map 0:v -c copy -dash 1 -cues_to_front 1 -fflags +bitexact "$HERE/dash/vp9-cues-front/video.webm"
(cd "$HERE/dash/vp9-cues-back" && ff -f webm_dash_manifest -i video.webm -c copy -map 0 -f webm_dash_manifest \
  -adaptation_sets "id=0,streams=0" manifest.mpd)
python3 - "$HERE/dash" <<'PY'
import re, sys
def vint(data, at, size):
    first, length, mask = data[at], 1, 0x80
    while length <= 8 and not first & mask:
        length, mask = length + 1, mask >> 1
    value = first & (mask - 1) if size else first
    for k in range(1, length):
        value = value << 8 | data[at + k]
    return value, length
def ranges(path):
    """The Initialization range (the head up to the Cues or the first Cluster) and the Cues' range, from the
    Segment's top-level elements."""
    data = open(path, "rb").read()
    ident, n = vint(data, 0, False); size, m = vint(data, n, True); at = n + m + size
    ident, n = vint(data, at, False); size, m = vint(data, at + n, True); at += n + m
    cues = cluster = None
    while at < len(data) and (cues is None or cluster is None):
        ident, n = vint(data, at, False); size, m = vint(data, at + n, True)
        if ident == 0x1C53BB6B: cues = (at, at + n + m + size - 1)
        if ident == 0x1F43B675 and cluster is None: cluster = at
        at += n + m + size
    return (0, min(cues[0], cluster) - 1), cues
dash = sys.argv[1]
back = open(f"{dash}/vp9-cues-back/manifest.mpd").read()
init, index = ranges(f"{dash}/vp9-cues-back/video.webm")
assert f'indexRange="{index[0]}-{index[1]}"' in back, (index, back)
init, index = ranges(f"{dash}/vp9-cues-front/video.webm")
front = re.sub(r'indexRange="\d+-\d+"', f'indexRange="{index[0]}-{index[1]}"', back)
front = re.sub(r'range="0-\d+"', f'range="{init[0]}-{init[1]}"', front)
open(f"{dash}/vp9-cues-front/manifest.mpd", "w").write(front)
PY

# VP8's frames, which no MP4 fixture holds: ffmpeg's digest of each (its native VP8 decoder, bit-exact with libvpx).
ffmpeg -v error -copyts -i "$HERE/vp8.cues-back.webm" -map 0:v:0 -fps_mode passthrough -enc_time_base -1 -f framemd5 - \
  | grep -v '^#' > "$HERE/vp8.cues-back.framemd5"

mkdir -p "$HERE/references"
python3 - "$HERE" "$FIX" <<'PY'
import json, os, subprocess, sys
here, fixtures = sys.argv[1], sys.argv[2]
sys.path.insert(0, fixtures)
import reference_pictures as refs  # geometry and the filter chain, shared with the MP4 fixtures' references
box = 160
out = {"files": []}
for name in sorted(os.listdir(here)):
    if not name.endswith((".mkv", ".webm")):
        continue
    path = os.path.join(here, name)
    probe, video, packets = refs.probe_video(path)
    other = [p for p in probe["packets"] if p["stream_index"] != video["index"]]
    times = sorted(p[0] for p in [[int(q["pts"]), "K" in q["flags"]] for q in packets])
    keys = sorted(int(q["pts"]) for q in packets if "K" in q["flags"])
    first, last = times[0], times[-1]
    middle = first + (last - first) // 2
    nearest = min(keys, key=lambda pts: (abs(pts - middle), pts))
    at_middle = max(pts for pts in times if pts <= middle)
    roles = [("nearestKeyframeToMid", middle, False, nearest), ("frameAtMid", middle, True, at_middle),
             ("firstFrame", first, True, first), ("lastFrame", last, True, last)]
    size = refs.frame_pictures(path, video, {os.path.join(here, "references", f"{name}.{role}.png"): pts
                                             for role, _, _, pts in roles}, box)
    out["files"].append({
        "name": name,
        "formatName": probe["format"]["format_name"],
        # MediaRecorder writes no Duration: then the last frame's end, as ffprobe lists the packets.
        "duration": float(probe["format"]["duration"]) if "duration" in probe["format"] else
            max(int(p["pts"]) + int(p.get("duration", 0)) for p in packets) / 1000,
        "hasDuration": "duration" in probe["format"],
        "hasCues": "|+ Cues" in subprocess.check_output(["mkvinfo", "-v", path], text=True),
        "codecName": video["codec_name"],
        "width": video["width"], "height": video["height"],
        "sampleAspectRatio": video.get("sample_aspect_ratio", "1:1"),
        # Matroska's time base is 1/1000 here (ffmpeg's and mkvmerge's TimestampScale of 1 ms).
        "videoPackets": [[int(p["pts"]), "K" in p["flags"], int(p["size"])] for p in packets],
        "otherPacketCount": len(other),
        "roles": [{"role": role, "askedMilliseconds": asked, "exact": exact, "shownMilliseconds": pts}
                  for role, asked, exact, pts in roles],
        "referenceSize": list(size),
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
