#!/usr/bin/env bash
# Writes the bare MPEG transport stream fixtures, remuxed (no re-encoding) from the MP4 fixtures by ffmpeg, one made
# here to be searched, and their expectations from ffprobe:
#
#   Fixtures/transport/<name>.ts|m2ts           the files
#   Fixtures/transport/expectations.json        per file: its packet size, duration, ffprobe's packet list of the
#                                               video stream (byte position, pts and dts in 90 kHz ticks from the
#                                               first picture, keyframe flag), and roles: the first and last frames,
#                                               and at three times (37, 50 and 81 % of the way) the keyframe nearest
#                                               and the frame shown (the time to ask, exact or not, the pts shown)
#   Fixtures/transport/references/<name>.<role>.png  ffmpeg's picture of each role's frame, fitted in 160x160 by
#                                               Fixtures/reference_pictures.py (as Fixtures/thumbnails)
#
#   usage: Fixtures/transport/make-transport.sh   (from anywhere; needs ffmpeg, ffprobe, python3)
#
# Files: ffmpeg's 188-byte TS of H.264 with B-frames, HEVC, H.264 with AAC, and MPEG-2 and MPEG-4 Part 2 video (16:9
# on 320x240, encoded here); the same H.264 as 192-byte M2TS
# (`-mpegts_m2ts_mode 1`, as Blu-ray and AVCHD camcorders write); the H.264 with its timestamps offset so that they
# wrap past 2^33 a second in; and a 30 s 256x144 stream with AAC and a keyframe every 2 s but at scene cuts
# (x264's defaults, so the keyframes are not evenly spaced), which a search has to narrow.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FIX="$(cd "$HERE/.." && pwd)"
for tool in ffmpeg ffprobe python3; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found" >&2; exit 1; }
done
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }

ff -i "$FIX/h264-bframes.mp4" -map 0:v -c copy -fflags +bitexact -f mpegts "$HERE/h264-bframes.ts"
ff -i "$FIX/hevc-8bit.mp4" -map 0:v -c copy -fflags +bitexact -f mpegts "$HERE/hevc-8bit.ts"
ff -i "$FIX/audio-video.mp4" -c copy -fflags +bitexact -f mpegts "$HERE/audio-video.ts"
ff -i "$FIX/h264-bframes.mp4" -map 0:v -c copy -fflags +bitexact -f mpegts -mpegts_m2ts_mode 1 "$HERE/h264-bframes.m2ts"
# 2^33 ticks are 95443.7 s: offset so (with the muxer's 1.4 s delay) the first picture is 1 s before, the
# timestamps wrap a second in.
ff -i "$FIX/h264-bframes.mp4" -map 0:v -c copy -fflags +bitexact -output_ts_offset 95441.3 -f mpegts "$HERE/h264-bframes.wrap.ts"
# MPEG-2 video as broadcast carries it, its pixels not square (16:9 on 320x240: 4:3 pixels), decoded only by a build with
# the FFmpegDecoders trait.
ff -f lavfi -i "testsrc2=size=320x240:rate=25:duration=3" -c:v mpeg2video -g 12 -bf 2 -q:v 8 -aspect 16:9 \
  -flags:v +bitexact -fflags +bitexact -f mpegts "$HERE/mpeg2.ts"
# MPEG-4 Part 2 (stream type 0x10), 16:9 on 320x240 too (an extended pixel aspect ratio in its video object layer).
ff -f lavfi -i "testsrc2=size=320x240:rate=25:duration=3" -c:v mpeg4 -g 12 -bf 2 -q:v 8 -aspect 16:9 \
  -flags:v +bitexact -fflags +bitexact -f mpegts "$HERE/mpeg4.ts"
ff -f lavfi -i "testsrc2=size=256x144:rate=25:duration=30" -f lavfi -i "sine=frequency=440:duration=30" \
  -vf "drawbox=x=0:y=0:w=iw:h=ih:color=black@1:t=fill:enable='between(t,7.4,7.6)+between(t,19.2,19.3)'" \
  -c:v libx264 -preset veryfast -crf 36 -g 50 -bf 2 -threads 1 -c:a aac -b:a 32k -fflags +bitexact -flags:v +bitexact \
  -f mpegts "$HERE/search-30s.ts"

python3 - "$HERE" "$FIX" <<'PY'
import json, os, sys
here, fixtures = sys.argv[1], sys.argv[2]
sys.path.insert(0, fixtures)
import reference_pictures as refs  # geometry and the filter chain, shared with the MP4 fixtures' references
box = 160
out = {"files": []}
for name in sorted(os.listdir(here)):
    if not name.endswith((".ts", ".m2ts")):
        continue
    path = os.path.join(here, name)
    _, video, packets = refs.probe_video(path)
    assert video["time_base"] == "1/90000", (name, video["time_base"])
    keys_at = [i for i, p in enumerate(packets) if "K" in p["flags"]]
    # Time zero: the earliest picture up to the first keyframe, in decoding order.
    zero = min(int(p["pts"]) for p in packets[:keys_at[0] + 1])
    times = sorted(int(p["pts"]) - zero for p in packets)
    keys = sorted(int(packets[i]["pts"]) - zero for i in keys_at)
    first, last = times[0], times[-1]
    roles = [("firstFrame", first, True, first), ("lastFrame", last, True, last)]
    for percent in (37, 50, 81):
        at = first + (last - first) * percent // 100
        nearest = min(keys, key=lambda pts: (abs(pts - at), pts))
        roles += [(f"nearestKeyframeTo{percent}", at, False, nearest),
                  (f"frameAt{percent}", at, True, max(pts for pts in times if pts <= at))]
    size = refs.frame_pictures(path, video, {os.path.join(here, "references", f"{name}.{role}.png"): pts + zero
                                             for role, _, _, pts in roles}, box)
    data = open(path, "rb").read(1024)
    out["files"].append({
        "name": name,
        "packetSize": 192 if data[4] == 0x47 and data[196] == 0x47 else 188,
        "codecName": video["codec_name"],
        "width": video["width"], "height": video["height"],
        # Where the last picture ends, from time zero: its pts and its duration.
        "endTicks": max(int(p["pts"]) - zero + int(p.get("duration", 0)) for p in packets),
        # The video stream's packets in file order: byte position, pts and dts from time zero, keyframe flag.
        "videoPackets": [[int(p["pos"]), int(p["pts"]) - zero, int(p["dts"]) - zero, "K" in p["flags"]] for p in packets],
        "roles": [{"role": role, "askedTicks": asked, "exact": exact, "shownTicks": pts} for role, asked, exact, pts in roles],
        "referenceSize": list(size),
    })
with open(os.path.join(here, "expectations.json"), "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
for entry in out["files"]:
    keys = sum(1 for p in entry["videoPackets"] if p[3])
    print(f'{entry["name"]:24} {entry["codecName"]:5} {entry["packetSize"]} {len(entry["videoPackets"]):4} packets {keys:3} keyframes, '
          f'{os.path.getsize(os.path.join(here, entry["name"]))} bytes')
PY
