#!/usr/bin/env python3
"""Writes Fixtures/streams/expectations.json: what independent tools say about the streams in this folder.

For every manifest:
  - ffmpegRequests: the segments FFmpeg's own HLS or DASH demuxer requests when it reads the whole stream
    (`ffmpeg -v debug -i <manifest> -c copy -f null -`, its "HLS/DASH request for url 'U', offset O" lines), as
    [url as written relative to the manifest's folder, offset]; null where FFmpeg cannot read the manifest (the
    reason is in ffmpegNote);
  - ffprobeDuration: the duration FFmpeg gives the stream, in seconds as it prints them;
and for the media files:
  - fragments: each file of several movie fragments, as [first byte, end] of each fragment run (from a styp, sidx,
    emsg or moof after the moov or an mdat, to the end of that mdat), read from the top-level boxes;
  - firstDecodeTimes: for each separate segment file beside an init segment, the decode time of its first video
    packet (ffprobe on the init segment followed by the segment), in seconds as ffprobe prints them.
Run it from anywhere; it needs ffmpeg and ffprobe. FFmpeg's DASH reader can spin on some SegmentList manifests:
each run is stopped after 60 s.
"""
import glob
import json
import os
import re
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

MANIFESTS = [
    "media3-cmaf-multi-segment/playlist.m3u8",
    "media3-cmaf-multi-segment/stream_1.m3u8",
    "media3-cmaf-multi-segment/manifest.mpd",
    "livesim2-testpic-alt-seg-dur-stl/Manifest.mpd",
    "shaka-dash-multitype-variant/dash.mpd",
    "shaka-6339/master.mpd",
    "shaka-7401/dash_0.mpd",
    "shaka-7401/dash_2.mpd",
    "media3-hls-cea608/manifest.m3u8",
    "media3-dash-multi-period-with-offset/sample.mpd",
    "media3-dash-multi-segment-with-emsg1/manifest.mpd",
]

# Separate segment files and the init segment that precedes each: (init, glob of segments), per folder.
SEGMENT_FILES = [
    ("media3-cmaf-multi-segment/video_init.mp4", "media3-cmaf-multi-segment/video_*.m4s"),
    ("livesim2-testpic-alt-seg-dur-stl/V300/init.mp4", "livesim2-testpic-alt-seg-dur-stl/V300/*.m4s"),
    ("shaka-7401/init-stream0.m4s", "shaka-7401/chunk-stream0-*.m4s"),
]


def ffmpeg_requests(manifest):
    folder = os.path.dirname(manifest)
    try:
        run = subprocess.run(["ffmpeg", "-nostdin", "-v", "debug", "-i", os.path.basename(manifest), "-c", "copy",
                              "-f", "null", "-"], cwd=folder, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "ffmpeg did not finish in 60 s"
    requests = [[m.group(2), int(m.group(3))]
                for m in re.finditer(r"(HLS|DASH) request for url '([^']*)', offset (\d+)", run.stderr)]
    if run.returncode != 0 or not requests:
        last = [line for line in run.stderr.splitlines() if line.strip()][-1:] or [""]
        return None, "ffmpeg exited %d: %s" % (run.returncode, last[0].strip())
    return requests, None


def ffprobe_duration(manifest):
    try:
        run = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                              os.path.basename(manifest)], cwd=os.path.dirname(manifest), capture_output=True,
                             text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None
    text = run.stdout.strip()
    return text if run.returncode == 0 and text and text != "N/A" else None


def top_level_boxes(path):
    boxes = []
    with open(path, "rb") as f:
        data = f.read()
    offset = 0
    while offset + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if size == 1:
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
        elif size == 0:
            size = len(data) - offset
        if size < 8:
            break
        boxes.append((kind.decode("latin-1"), offset, offset + size))
        offset += size
    return boxes


def fragments(path):
    runs = []
    start = None
    after_index = False
    for kind, first, end in top_level_boxes(path):
        if kind == "moov":
            after_index = True
            continue
        if not after_index:
            continue
        if kind in ("styp", "sidx", "emsg", "moof", "prft") and start is None:
            start = first
        if kind == "mdat" and start is not None:
            runs.append([start, end])
            start = None
    return runs


def first_decode_time(init, segment):
    with tempfile.NamedTemporaryFile(suffix=".mp4") as joined:
        for part in (init, segment):
            with open(part, "rb") as f:
                joined.write(f.read())
        joined.flush()
        run = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=dts_time",
                              "-read_intervals", "%+#1", "-of", "csv=p=0", joined.name],
                             capture_output=True, text=True, timeout=60)
    lines = run.stdout.split()
    return lines[0] if lines else None


def main():
    result = {"manifests": [], "fragments": {}, "firstDecodeTimes": {}}
    for relative in MANIFESTS:
        manifest = os.path.join(HERE, relative)
        requests, note = ffmpeg_requests(manifest)
        entry = {"manifest": relative, "ffmpegRequests": requests, "ffprobeDuration": ffprobe_duration(manifest)}
        if note:
            entry["ffmpegNote"] = note
        result["manifests"].append(entry)
    for path in sorted(glob.glob(os.path.join(HERE, "*", "*.mp4"))):
        runs = fragments(path)
        if len(runs) > 1:
            result["fragments"][os.path.relpath(path, HERE)] = runs
    for init, pattern in SEGMENT_FILES:
        for segment in sorted(glob.glob(os.path.join(HERE, pattern))):
            time = first_decode_time(os.path.join(HERE, init), segment)
            result["firstDecodeTimes"][os.path.relpath(segment, HERE)] = time
    with open(os.path.join(HERE, "expectations.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
