#!/usr/bin/env python3
"""One thumbnail of each HLS and DASH layout, beside ffmpeg reading the same playlist, from two kinds of origin.

The layouts are cut by ffmpeg's hls and dash muxers from the 1080p H.264 medium (60 s, a keyframe every 2 s, AAC),
stream copy, 6 s segments: MPEG-TS segments; MPEG-TS in one file by EXT-X-BYTERANGE; MPEG-TS with an I-frame playlist
(written here from ffprobe's packets, as shaka-packager writes one); fMP4 with EXT-X-MAP; a master of two variants
(the copy and a 640x360 encode); DASH SegmentTemplate with $Number$, with a SegmentTimeline and $Time$, SegmentList,
and SegmentBase (one file with a sidx). The origins are server.py's `multipart` (as nginx) and `whole` (as S3, GCS,
R2 and Azure: the whole object for several ranges), at --rtt-ms per request and per new connection and --mbit
shared. Every run is a new process.

The bound of a thumbnail is what no reader of the layout can do without: the playlists it must read (the master and
the chosen media playlist; the I-frame playlist where it is used), the init segment (of SegmentBase: ftyp and moov),
and the keyframe shown (ffprobe's packet size, in the rendition read).

Writes Benchmarks/results/stream-layouts.md and stream-layouts.json.

Usage: Benchmarks/harness/stream-layouts.py --thumbs PATH [--runs N] [--rtt-ms 50] [--mbit 50] [--time 25.4]
"""
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness: its server, timing and media)

SOURCE = os.path.join(run.MEDIA_DIR, "h264-1080p-60s-faststart.mp4")
FF = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
KINDS = {"multipart": "nginx-like (multipart)", "whole": "object store (whole object for several ranges)"}


def hls(folder, *extra):
    subprocess.run(FF + ["-i", SOURCE, "-map", "0", "-c", "copy", "-f", "hls", "-hls_time", "6",
                         "-hls_playlist_type", "vod", *extra, os.path.join(folder, "index.m3u8")], check=True, cwd=folder)


def dash(folder, *extra):
    subprocess.run(FF + ["-i", SOURCE, "-map", "0", "-c", "copy", "-f", "dash", "-seg_duration", "6", *extra,
                         os.path.join(folder, "manifest.mpd")], check=True, cwd=folder)


def video_packets(path):
    """ffprobe's video packets of `path`: (pts seconds, pos, size, key)."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "packet=pts_time,pos,size,flags", "-of", "json", path], capture_output=True, text=True,
                         check=True).stdout
    return [(float(p["pts_time"]), int(p.get("pos", -1) if p.get("pos", "N/A") != "N/A" else -1), int(p["size"]),
             "K" in p.get("flags", "")) for p in json.loads(out)["packets"] if p.get("pts_time") not in (None, "N/A")]


def write_iframe_playlist(folder):
    """An I-frame playlist of every keyframe of the TS segments and a master naming it beside index.m3u8
    (Fixtures/streams/write-iframe-playlist.py)."""
    subprocess.run([sys.executable, os.path.join(run.ROOT, "Fixtures", "streams", "write-iframe-playlist.py"), folder,
                    "--resolution", "1920x1080", "--codecs", "avc1.640028,mp4a.40.2", "--iframe-codecs", "avc1.640028",
                    "--bandwidth", "8500000", "--iframe-bandwidth", "1000000", "--target-duration", "2"], check=True)


def two_variants(folder):
    """A master of the 1080p copy and a 640x360 encode with keyframes at the same times, fMP4 segments."""
    for variant in ("v0", "v1"):
        os.makedirs(os.path.join(folder, variant), exist_ok=True)
    subprocess.run(FF + ["-i", SOURCE, "-map", "0:v", "-map", "0:v", "-c:v:0", "copy", "-c:v:1", "libx264",
                         "-s:v:1", "640x360", "-preset:v:1", "veryfast", "-b:v:1", "800k",
                         "-force_key_frames:v:1", "expr:gte(t,n_forced*2)", "-sc_threshold:v:1", "0",
                         "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
                         "-var_stream_map", "v:0 v:1", "-master_pl_name", "master.m3u8",
                         "-hls_fmp4_init_filename", "init.mp4", "-hls_segment_filename", "v%v/seg%d.m4s",
                         os.path.join(folder, "v%v/index.m3u8")], check=True, cwd=folder)


def segment_base(folder):
    """DASH SegmentBase: ffmpeg's single-file DASH (a SegmentList by ranges) rewritten as SegmentBase over a copy with
    one sidx, as on-demand packagers write it."""
    subprocess.run(FF + ["-i", SOURCE, "-map", "0:v", "-c", "copy", "-movflags",
                         "frag_keyframe+empty_moov+default_base_moof+global_sidx", "-frag_duration", "6000000",
                         os.path.join(folder, "video.mp4")], check=True)
    boxes = run.top_level_boxes(os.path.join(folder, "video.mp4"))
    moov = next((o, n) for kind, o, n in boxes if kind == "moov")
    sidx = next((o, n) for kind, o, n in boxes if kind == "sidx")
    open(os.path.join(folder, "manifest.mpd"), "w").write(f"""<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static"
     mediaPresentationDuration="PT60S" minBufferTime="PT2S">
  <Period><AdaptationSet mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">
    <Representation id="v" codecs="avc1.640028" width="1920" height="1080" bandwidth="8000000">
      <BaseURL>video.mp4</BaseURL>
      <SegmentBase indexRange="{sidx[0]}-{sidx[0] + sidx[1] - 1}"><Initialization range="0-{moov[0] + moov[1] - 1}"/></SegmentBase>
    </Representation>
  </AdaptationSet></Period>
</MPD>
""")


# name -> (make(folder), entry playlist, playlists a thumbnail must read, init segment (a file, or "index of" a file:
# its ftyp, moov and sidx), the media whose packets are the keyframes shown (None: the source, which
# the layout copies))
LAYOUTS = {
    "HLS, TS segments": (lambda f: hls(f, "-hls_segment_filename", "seg%d.ts"), "index.m3u8", ["index.m3u8"], None, None),
    "HLS, TS in one file (BYTERANGE)": (lambda f: hls(f, "-hls_flags", "single_file"), "index.m3u8", ["index.m3u8"], None, None),
    "HLS, TS with an I-frame playlist": (lambda f: (hls(f, "-hls_segment_filename", "seg%d.ts"), write_iframe_playlist(f)),
                                         "master.m3u8", ["master.m3u8", "iframes.m3u8"], None, None),
    "HLS, fMP4 (EXT-X-MAP)": (lambda f: hls(f, "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                                            "-hls_segment_filename", "seg%d.m4s"),
                              "index.m3u8", ["index.m3u8"], "init.mp4", None),
    "HLS, master of two variants (fMP4)": (two_variants, "master.m3u8", ["master.m3u8", "v1/index.m3u8"], "v1/init_1.mp4",
                                            "v1/index.m3u8"),
    "DASH, SegmentTemplate $Number$": (lambda f: dash(f, "-use_template", "1", "-use_timeline", "0"), "manifest.mpd",
                                        ["manifest.mpd"], "init-stream0.m4s", None),
    "DASH, SegmentTimeline $Time$": (lambda f: dash(f, "-use_template", "1", "-use_timeline", "1",
                                                    "-media_seg_name", "chunk-$RepresentationID$-$Time$.m4s"),
                                      "manifest.mpd", ["manifest.mpd"], "init-stream0.m4s", None),
    "DASH, SegmentList": (lambda f: dash(f, "-use_template", "0", "-use_timeline", "0"), "manifest.mpd",
                          ["manifest.mpd"], "init-stream0.m4s", None),
    "DASH, SegmentBase (sidx)": (segment_base, "manifest.mpd", ["manifest.mpd"], "index of video.mp4", None),
}


def bound(folder, layout, keyframe_time):
    """Playlists + init + the keyframe shown (ffprobe's packet at thumbs' keyframe time, in the rendition read)."""
    _, _, playlists, init, media = LAYOUTS[layout]
    parts = {"playlists": sum(os.path.getsize(os.path.join(folder, p)) for p in playlists)}
    if init and init.startswith("index of "):
        boxes = run.top_level_boxes(os.path.join(folder, init[len("index of "):]))
        parts["init"] = sum(n for kind, _, n in boxes if kind in ("ftyp", "moov", "sidx"))
    elif init:
        parts["init"] = os.path.getsize(os.path.join(folder, init))
    # On the stream's timeline, which starts at its first picture (ffprobe keeps MPEG-TS's 1.4 s offset and the
    # composition delay of B-frames).
    keys = [p for p in video_packets(os.path.join(folder, media) if media else SOURCE) if p[3]]
    first = min(p[0] for p in keys)
    pts, _, size, _ = min(keys, key=lambda p: abs(p[0] - first - keyframe_time))
    parts["keyframe"] = size
    return {"parts": parts, "bytes": sum(parts.values()), "keyframeTime": pts - first}


def main():
    parser = run.arguments(__doc__, runs=3, network=True)
    parser.add_argument("--time", type=float, default=25.4)
    parser.add_argument("--layout", action="append", help="only these layouts (default: all)")
    args = parser.parse_args()
    if not os.path.exists(SOURCE):
        raise SystemExit(f"{SOURCE} is missing: run Benchmarks/media/make-media.sh")
    started = time.monotonic()
    layouts = args.layout or list(LAYOUTS)
    rows = []
    with tempfile.TemporaryDirectory() as root:
        for name in layouts:
            folder = os.path.join(root, str(list(LAYOUTS).index(name)))
            os.makedirs(folder)
            LAYOUTS[name][0](folder)
        server = run.Server(root)
        try:
            for name in layouts:
                index = list(LAYOUTS).index(name)
                folder = os.path.join(root, str(index))
                url = f"{server.base}/{index}/{LAYOUTS[name][1]}"
                out = os.path.join(root, "out.png")
                for kind in KINDS:
                    server.get(f"/_config?rtt_ms={args.rtt_ms}&bandwidth_mbit={args.mbit}&multi_ranges={kind}")
                    made = run.measure_runs(server, [args.thumbs, "thumbnail", url, "--time", str(args.time), "--max-size", "320",
                                            "-o", out, "--stats"], args.runs)
                    keyframe_time = made.get("stats", {}).get("keyframeTime", args.time)
                    limit = bound(folder, name, keyframe_time)
                    ffmpeg = run.measure_runs(server, FF + ["-ss", str(args.time), "-i", url, "-frames:v", "1", "-vf", "scale=320:-2",
                                                   out], 1)
                    rows.append({"layout": name, "origin": kind, "thumbs": made, "ffmpeg": ffmpeg, "bound": limit})
                    print(f"{name} / {kind}: thumbs {made['requests']} requests {made['bytes']:,} bytes "
                          f"(x{made['bytes'] / limit['bytes']:.2f}) {made['wallMs']:.0f} ms; ffmpeg {ffmpeg['requests']} "
                          f"requests {ffmpeg['bytes']:,} bytes {ffmpeg['wallMs']:.0f} ms", file=sys.stderr)
        finally:
            server.stop()
    write_report(args, rows, time.monotonic() - started)


def cell(row, limit):
    if row["failures"] and row.get("error"):
        return "fails: " + row["error"].splitlines()[-1][:80].replace("|", "/")
    return f"{row['requests']:.0f} / {row['bytes']:,.0f} (x{row['bytes'] / limit['bytes']:.2f}) / {row['wallMs']:.0f} ms"


def write_report(args, rows, elapsed):
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# A thumbnail of each stream layout",
        "",
        f"{stamp}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}, {elapsed:.0f} s. Command: "
        f"`Benchmarks/harness/stream-layouts.py --thumbs <release thumbs> --runs {args.runs}`.",
        "",
        f"The 1080p H.264 medium (60 s, a keyframe every 2 s) cut by ffmpeg's muxers into 6 s segments, at "
        f"{args.rtt_ms:g} ms RTT (one more per new connection) and {args.mbit:g} Mbit/s shared; the thumbnail at "
        f"{args.time:g} s, at most 320 pixels. Each cell: requests / bytes the server wrote (x the bound: the "
        "playlists read, the init segment and the keyframe shown) / wall ms; thumbs the median of "
        f"{args.runs} new processes, `ffmpeg -ss T -i <playlist> -frames:v 1` one run. thumbs shows the keyframe "
        "nearest the time it knows of (an MPEG-TS segment's keyframes past its first are known only from an I-frame "
        "playlist); ffmpeg decodes up to the time.",
        "",
        "| layout | origin | thumbs | keyframe shown (s) | ffmpeg | bound (bytes) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        shown = row["thumbs"].get("stats", {}).get("keyframeTime")
        lines.append(f"| {row['layout']} | {KINDS[row['origin']]} | {cell(row['thumbs'], row['bound'])} | "
                     f"{'-' if shown is None else f'{shown:.3f}'} | {cell(row['ffmpeg'], row['bound'])} | "
                     f"{row['bound']['bytes']:,} |")
    results = os.path.join(run.BENCH, "results")
    with open(os.path.join(results, "stream-layouts.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(results, "stream-layouts.json"), "w") as f:
        json.dump({"date": stamp, "args": vars(args), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
