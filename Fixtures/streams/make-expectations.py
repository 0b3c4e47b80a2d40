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
    emsg or moof after the moov or an mdat, or at the start of a segment file, to the end of that mdat), read from
    the top-level boxes;
  - transportPackets: for each MPEG-TS file, its video packets as ffprobe lists them (`-show_packets`), as
    [pts, dts, pos, keyframe] in 90 kHz ticks and bytes (ffprobe's times unwrapped its own way: compare differences);
  - firstDecodeTimes: for each separate segment file beside an init segment, the decode time of its first video
    packet (ffprobe on the init segment followed by the segment), in seconds as ffprobe prints them.
  - references/<name>.png: ffmpeg's picture at a keyframe time of a stream (REFERENCES), read through the
    playlist or manifest by ffmpeg's own HLS or DASH reader (`-ss T -i <manifest>`), or where that reader cannot
    (REFERENCES says why) from the media file itself; fitted inside 160x160 and converted as
    Fixtures/reference_pictures.py does for every other reference picture.
Run it from anywhere; it needs ffmpeg (with zscale) and ffprobe. FFmpeg's DASH reader can spin on some SegmentList manifests:
each run is stopped after 60 s.
"""
import glob
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import reference_pictures as refs  # noqa: E402  (geometry and filter chain shared with the other references)

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
    "shaka-hls-ts-h265/hevc.m3u8",
    "ffmpeg-hls-ts-h264-bframes/index.m3u8",
    "ffmpeg-hls-ts-hevc-single-file/index.m3u8",
    "ffmpeg-hls-ts-muxed-aac/index.m3u8",
    "ffmpeg-hls-ts-iframes/master.m3u8",
    "shaka-lcevc-sei-ts/master.m3u8",
]

# Separate segment files and the init segment that precedes each: (init, glob of segments), per folder.
SEGMENT_FILES = [
    ("media3-cmaf-multi-segment/video_init.mp4", "media3-cmaf-multi-segment/video_*.m4s"),
    ("livesim2-testpic-alt-seg-dur-stl/V300/init.mp4", "livesim2-testpic-alt-seg-dur-stl/V300/*.m4s"),
    ("shaka-7401/init-stream0.m4s", "shaka-7401/chunk-stream0-*.m4s"),
]


# (name, what ffmpeg reads, a time in seconds, what to add to ffmpeg's time to make the stream's). ffmpeg decodes
# from the start and takes the first keyframe at or after the time (`select=gte(t,T)*eq(pict_type,I)`; its HLS
# reader fails to seek in this fMP4 stream, -ss gives no frame): the nearest keyframe to the time, where it is a
# segment's start. Its time, from showinfo with -copyts, plus the offset, is the picture's time on the stream. Where ffmpeg reads the media file
# instead: shaka 6339's manifest it refuses; shaka's SegmentBase periods it reads as one period of length 0, so each
# period's picture comes from its file (VP9 in WebM, H.264 in MP4, VP9 in WebM), which starts at the period's start
# (0, 2.06874 and 4.20413 s, no presentationTimeOffset); in livesim2's, FFmpeg's DASH reader skips the first segment and shows the 8 s picture at
# 4 s (the test pattern's burnt-in timecode says 00:00:08:00), so its picture comes from the segment behind its init
# segment (ffmpeg's concat protocol), where the segment's first picture is at 4.0667 s (two B frames' delay, no
# edit list) and on the stream at 4 s (its SegmentTimeline `t`). A concat: source is read in the folder before it.
REFERENCES = [
    ("cmaf-hls-1s", "media3-cmaf-multi-segment/playlist.m3u8", 1.0, 0.0),
    ("cmaf-dash-2.2s", "media3-cmaf-multi-segment/manifest.mpd", 2.2, 0.0),
    ("livesim2-4s", "livesim2-testpic-alt-seg-dur-stl/concat:V300/init.mp4|V300/360000.m4s", 4.0, -0.066667),
    # The newest keyframe of the two live snapshots of shaka 7401: the last segment of their last period (from
    # 1028 s), the second in dash_0.mpd and the third in dash_1.mpd; each segment starts with its only keyframe.
    ("shaka7401-live0-newest", "shaka-7401/concat:init-stream0.m4s|chunk-stream0-00002.m4s", 0.0, 1028.0),
    ("shaka7401-live1-newest", "shaka-7401/concat:init-stream0.m4s|chunk-stream0-00003.m4s", 0.0, 1028.0),
    ("shaka7401-static-4s", "shaka-7401/dash_2.mpd", 4.0, 0.0),
    ("shaka6339-19.9s", "shaka-6339/v.mp4", 19.9, 0.0),
    ("multitype-period1", "shaka-dash-multitype-variant/first-period.webm", 0.0, 0.0),
    ("multitype-period2", "shaka-dash-multitype-variant/second-period.mp4", 0.0, 2.06874),
    ("multitype-period3", "shaka-dash-multitype-variant/third-period.webm", 0.0, 4.20413),
    # MPEG-TS: Media3's one segment (its first keyframe at 0 s; the picture is dark); shaka's 12 s HEVC Main 10
    # segment, whose first picture is at 1.4 s in the file and 0 s on the stream, with keyframes every 2.5 s: at 0 s,
    # and at 5 s (6.4 s in the file), which the tests ask for exactly (tolerance zero).
    ("cea608-ts-0s", "media3-hls-cea608/manifest.m3u8", 0.0, 0.0),
    ("ts-h265-0s", "shaka-hls-ts-h265/0.ts", 1.4, -1.4),
    ("ts-h265-5s", "shaka-hls-ts-h265/0.ts", 6.4, -1.4),
    # shaka-packager's I-frame playlist into one TS file: the keyframe at 6.567 s in the file (its first picture at
    # 0.1 s), 6.467 s on the stream, inside its only 10 s segment; the tests ask for 6.4 s, nearer it than the one
    # before at 4.467 s.
    ("lcevc-ts-iframe-6.467s", "shaka-lcevc-sei-ts/1.ts", 6.5, -0.1),
    # file-type's 1080i camcorder clip (H.264 field pictures, each field a PES packet of its own), as the one segment
    # of our playlist: its first picture is at 1.433 s in the file, 0 s on the stream. Decoded only by a build with
    # the FFmpegDecoders trait.
    ("mts-interlaced-0s", "filetype-mts-interlaced/raw.mts", 1.43, -1.433367),
]


def reference_picture(name, source, seconds):
    """ffmpeg's picture of the first keyframe at or after `seconds` in `source`: its fitted size and ffmpeg's time."""
    # A concat: source (init segment and segment, read as one) is read in the folder before it.
    if "/concat:" in source:
        folder, rest = source.split("/concat:", 1)
        folder, name_read = os.path.join(HERE, folder), "concat:" + rest
    else:
        folder, name_read = os.path.dirname(os.path.join(HERE, source)), os.path.basename(source)
    probe = json.loads(subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "stream=width,height,sample_aspect_ratio,color_space,color_range,pix_fmt:stream_side_data=rotation",
         "-of", "json", name_read], cwd=folder, capture_output=True, text=True,
        timeout=60).stdout)["streams"][0]
    rotation = next((side.get("rotation") for side in probe.get("side_data_list", []) if "rotation" in side), None)
    size = refs.fitted(*refs.display_size(probe["width"], probe["height"], probe.get("sample_aspect_ratio"), rotation), 160)
    matrix, rng = refs.colour_of(probe.get("color_space"), probe.get("color_range"), probe["width"], probe["height"])
    chain = refs.filter_chain(size, "10" in probe.get("pix_fmt", ""), matrix, rng, None, None)
    os.makedirs(os.path.join(HERE, "references"), exist_ok=True)
    target = os.path.join(HERE, "references", name + ".png")
    if os.path.exists(target):
        os.remove(target)
    select = f"select=gte(t\\,{seconds})*eq(pict_type\\,I),showinfo"
    command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "info", "-y", "-copyts", "-sws_flags", refs.SWSCALE_FLAGS,
               "-i", name_read, "-map", "0:v:0", "-vf", f"{select},{chain}", "-fps_mode", "passthrough",
               "-frames:v", "1", "-c:v", "png", "-pred", "mixed", "-compression_level", "9", "-map_metadata", "-1",
               "-fflags", "+bitexact", "-flags:v", "+bitexact", "-f", "image2", target]
    run = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
    shown = re.search(r"Parsed_showinfo.*? pts_time:\s*([-0-9.]+)", run.stderr)
    if not os.path.exists(target) or not shown:
        raise RuntimeError("ffmpeg wrote no " + target + ": " + run.stderr[-500:])
    return list(size), shown.group(1)


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
    after_index = path.endswith(".m4s")  # a media segment has no moov
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


def transport_packets(path):
    """ffprobe's video packets of an MPEG-TS file: [pts, dts, pos, keyframe] each."""
    run = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_packets",
                          "-show_entries", "packet=pts,dts,pos,flags", "-of", "json", path],
                         capture_output=True, text=True, check=True)
    return [[int(p["pts"]), int(p.get("dts", p["pts"])), int(p["pos"]), "K" in p["flags"]]
            for p in json.loads(run.stdout)["packets"]]


def main():
    result = {"manifests": [], "fragments": {}, "firstDecodeTimes": {}, "references": [], "transportPackets": {}}
    for name, source, seconds, offset in REFERENCES:
        size, shown = reference_picture(name, source, seconds)
        result["references"].append({"name": name, "source": source, "seconds": seconds, "ffmpegTime": shown,
                                     "offset": offset, "size": size})
    if os.environ.get("REFERENCES_ONLY"):
        MANIFESTS.clear()
        SEGMENT_FILES.clear()
        with open(os.path.join(HERE, "expectations.json")) as f:
            kept = json.load(f)
        kept["references"] = result["references"]
        result = kept
    for relative in MANIFESTS:
        manifest = os.path.join(HERE, relative)
        requests, note = ffmpeg_requests(manifest)
        entry = {"manifest": relative, "ffmpegRequests": requests, "ffprobeDuration": ffprobe_duration(manifest)}
        if note:
            entry["ffmpegNote"] = note
        result["manifests"].append(entry)
    for path in sorted(glob.glob(os.path.join(HERE, "*", "*.mp4")) + glob.glob(os.path.join(HERE, "*", "*", "*.m4s"))):
        runs = fragments(path)
        if len(runs) > 1:
            result["fragments"][os.path.relpath(path, HERE)] = runs
    for init, pattern in SEGMENT_FILES:
        for segment in sorted(glob.glob(os.path.join(HERE, pattern))):
            time = first_decode_time(os.path.join(HERE, init), segment)
            result["firstDecodeTimes"][os.path.relpath(segment, HERE)] = time
    for path in sorted(glob.glob(os.path.join(HERE, "*", "*.ts"))):
        result.setdefault("transportPackets", {})[os.path.relpath(path, HERE)] = transport_packets(path)
    with open(os.path.join(HERE, "expectations.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
