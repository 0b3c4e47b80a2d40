#!/usr/bin/env python3
"""One thumbnail of the benchmark movie as Matroska, per layout and per kind of origin, beside ffmpeg and
ffmpegthumbnailer on the same origin.

Layouts, made here from the 60 s 1080p H.264 movie by remuxing (no re-encoding): ffmpeg's (Cues after the Clusters),
ffmpeg's `-cues_to_front 1`, mkvmerge's (Cues after the Clusters, a SeekHead), mkvmerge's `--no-cues`; and a 60 s VP9
recording by chromium's MediaRecorder (no Cues, no Duration, a Segment of unknown size): the fixture
Fixtures/matroska/chromium-vp9-60s.webm, recorded by Fixtures/matroska/record-chromium.py; and DASH with WebM: the
movie encoded here to VP9 (libvpx, realtime, 6 Mbit/s, a keyframe every 48 frames) by ffmpeg's `-dash 1` WebM muxer
(Cues after the Clusters), with the SegmentBase manifest its webm_dash_manifest muxer writes (the tools are given the
manifest's URL). The picture is asked for at 30 s (the middle).

The bound is what no reader can do without: the EBML header, the Segment's elements before the first Cluster
(SeekHead, Info, Tracks), the Cues, and the keyframe's block (the keyframe nearest 30 s by ffprobe's packet list,
with its block header), all read from the file's own elements here. A file without Cues has no such bound: its
figure is the requests (the issue's ceiling is 14) and the bytes. For DASH the bound adds the manifest, and thumbs reads
no ends: its ratio is of all it read.

The kinds of origin are server.py's (origin-kinds.py says what each answers to several ranges). Writes
Benchmarks/results/matroska-layouts.md and .json.

Usage: Benchmarks/harness/matroska-layouts.py --thumbs PATH [--runs N] [--rtt-ms 50] [--mbit 50]
"""
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness: its media, server, timing)

SOURCE = "h264-1080p-60s-faststart.mp4"
KIND_NAMES = {"multipart": "multipart (nginx)", "whole": "whole object (S3, GCS, R2)", "refuse": "416 (OSS)"}
TIME = 30
RECORDING = "mediarecorder-vp9-60s.webm"
DASH_LAYOUT = "DASH with WebM (VP9, SegmentBase)"
DASH_FILE = "vp9-1080p-60s.dash.webm"
DASH_MANIFEST = "vp9-1080p-60s.dash.mpd"
# What thumbs reads first of a Matroska file whatever it holds: 64 KiB of its head and 64 KiB of its tail
# (MatroskaLocator's defaults), the ends the bound is taken beside.
ENDS = 128 * 1024


def make_layouts():
    """The layouts' files in the media folder (made once): name -> file."""
    source = os.path.join(run.MEDIA_DIR, SOURCE)
    ff = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", source, "-map", "0:v", "-c", "copy",
          "-fflags", "+bitexact"]
    layouts = {
        "Cues after the Clusters (ffmpeg)": ("h264-1080p-60s.cues-back.mkv", ff),
        "Cues first (ffmpeg -cues_to_front)": ("h264-1080p-60s.cues-front.mkv", ff + ["-cues_to_front", "1"]),
        "mkvmerge": ("h264-1080p-60s.mkvmerge.mkv", ["mkvmerge", "--quiet", "-o", None, source]),
        "no Cues (mkvmerge --no-cues)": ("h264-1080p-60s.nocues.mkv", ["mkvmerge", "--quiet", "--no-cues", "-o", None, source]),
    }
    made = {}
    for name, (file, command) in layouts.items():
        path = os.path.join(run.MEDIA_DIR, file)
        if not os.path.exists(path):
            if command[0] == "mkvmerge":
                command = [path if part is None else part for part in command]
            else:
                command = command + [path]
            subprocess.run(command, check=True)
        made[name] = file
    recording = os.path.join(run.MEDIA_DIR, RECORDING)
    if not os.path.exists(recording):
        shutil.copyfile(os.path.join(run.ROOT, "Fixtures", "matroska", "chromium-vp9-60s.webm"), recording)
    made["MediaRecorder VP9, no Cues (chromium)"] = RECORDING
    webm = os.path.join(run.MEDIA_DIR, DASH_FILE)
    if not os.path.exists(webm):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", source, "-an", "-c:v", "libvpx-vp9", "-deadline",
                        "realtime", "-cpu-used", "8", "-row-mt", "1", "-threads", "2", "-b:v", "6M", "-g", "48",
                        "-keyint_min", "48", "-f", "webm", "-dash", "1", webm], check=True)
    manifest = os.path.join(run.MEDIA_DIR, DASH_MANIFEST)
    if not os.path.exists(manifest):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "webm_dash_manifest", "-i", DASH_FILE, "-c", "copy",
                        "-map", "0", "-f", "webm_dash_manifest", "-adaptation_sets", "id=0,streams=0", DASH_MANIFEST],
                       check=True, cwd=run.MEDIA_DIR)
    made[DASH_LAYOUT] = DASH_MANIFEST
    return made


def elements(path):
    """(ID, offset, total size) of the EBML header and of the Segment's children up to the first Cluster, and of the
    Cues wherever they are: a walk of the top level, read here (not by thumbs)."""
    data = open(path, "rb").read()

    def vint(position, keep_marker):
        first = data[position]
        length = 8 - first.bit_length() + 1
        value = first if keep_marker else first & (0xFF >> length)
        for byte in data[position + 1: position + length]:
            value = value << 8 | byte
        unknown = not keep_marker and value == (1 << (7 * length)) - 1
        return value, length, unknown

    found = []
    position = 0
    ident, length, _ = vint(0, True)
    size, size_length, _ = vint(length, False)
    found.append((ident, 0, length + size_length + size))
    position = length + size_length + size
    ident, length, _ = vint(position, True)
    _, size_length, _ = vint(position + length, False)
    position += length + size_length  # the Segment's data
    found.append((0x18538067, position - length - size_length, length + size_length))
    seen_cluster = False
    while position + 2 < len(data):
        ident, length, _ = vint(position, True)
        size, size_length, unknown = vint(position + length, False)
        total = length + size_length + size
        if ident == 0x1F43B675:
            seen_cluster = True
            if unknown:
                break
        elif not seen_cluster or ident == 0x1C53BB6B:
            found.append((ident, position, total))
        position += total
    return found


def lower_bound(path):
    """The bytes no reader can do without: the EBML header, the Segment's header, SeekHead, Info, Tracks, Cues and
    the keyframe nearest TIME with its block header (16 bytes at most); None for a file without Cues."""
    parts = elements(path)
    has_cues = any(ident == 0x1C53BB6B for ident, _, _ in parts)
    _, size = run.nearest_keyframe(path, TIME)
    index = sum(total for ident, _, total in parts if ident in (0x1A45DFA3, 0x18538067, 0x114D9B74, 0x1549A966,
                                                                   0x1654AE6B, 0x1C53BB6B))
    return {"index": index, "keyframe": size + 16, "bytes": index + size + 16, "hasCues": has_cues,
            "fileSize": os.path.getsize(path)}


def main():
    ap = run.arguments(__doc__, runs=3, network=True)
    ap.add_argument("--results", default=run.RESULTS)
    args = ap.parse_args()
    layouts = make_layouts()
    bounds = {name: lower_bound(os.path.join(run.MEDIA_DIR, file)) for name, file in layouts.items() if name != DASH_LAYOUT}
    bounds[DASH_LAYOUT] = lower_bound(os.path.join(run.MEDIA_DIR, DASH_FILE))
    manifest_bytes = os.path.getsize(os.path.join(run.MEDIA_DIR, DASH_MANIFEST))
    bounds[DASH_LAYOUT].update(bytes=bounds[DASH_LAYOUT]["bytes"] + manifest_bytes, manifest=manifest_bytes, dash=True)
    rows = []
    started = time.monotonic()
    with run.served() as (server, tmp):
        for kind in run.origin_kinds(server, args):
            for name, file in layouts.items():
                url = f"{server.base}/{file}"
                for tool, runs in (("thumbs", args.runs), ("ffmpeg", 1), ("ffmpegthumbnailer", 1)):
                    if tool != "thumbs" and not shutil.which(tool):
                        continue
                    row = run.measure_runs(server, run.commands(tool, args.thumbs, url, TIME, os.path.join(tmp, "o")), runs)
                    row.update(kind=kind, layout=name, tool=tool)
                    rows.append(row)
                    print(f"{kind:9} {name:40} {tool:17} {row['requests']:>3} requests {row['bytes']:>10} bytes "
                          f"{row['wallMs']:7.0f} ms" + (f" FAILED {row.get('error', '')}" if row["failures"] else ""),
                          flush=True)
    write(args, rows, bounds, time.monotonic() - started)


def write(args, rows, bounds, elapsed):
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, "matroska-layouts.json"), "w") as f:
        json.dump({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                   "machine": platform.platform(), "rttMs": args.rtt_ms, "mbit": args.mbit, "runs": args.runs,
                   "bounds": bounds, "rows": [{k: v for k, v in r.items() if k != "log"} for r in rows]}, f, indent=1)
    lines = [f"# Matroska layouts: one picture at {TIME} s from each kind of origin", "",
             f"{args.rtt_ms:g} ms RTT, {args.mbit:g} Mbit/s, median of {args.runs} runs of thumbs (ffmpeg and "
             f"ffmpegthumbnailer once); {elapsed:.0f} s. Bound: EBML header, SeekHead, Info, Tracks, Cues and the "
             "keyframe's block (for DASH, and the manifest); thumbs' ratio is of what it read past its first read's ends "
             "(128 KiB; all it read for DASH) to the bound.", "",
             "| origin | layout | bound | thumbs: requests, round trips, bytes (x bound), wall | ffmpeg: requests, bytes, wall | ffmpegthumbnailer: requests, bytes, wall |",
             "| --- | --- | ---: | --- | --- | --- |"]
    for kind in run.ORIGIN_KINDS:
        for layout in dict.fromkeys(r["layout"] for r in rows):
            bound = bounds[layout]
            cells = []
            for tool in ("thumbs", "ffmpeg", "ffmpegthumbnailer"):
                row = next((r for r in rows if r["kind"] == kind and r["layout"] == layout and r["tool"] == tool), None)
                if row is None:
                    cells.append("")
                    continue
                if row["failures"]:
                    cells.append("failed")
                    continue
                ends = 0 if bound.get("dash") else ENDS
                ratio = f" ({(row['bytes'] - ends) / bound['bytes']:.2f}x)" if bound["hasCues"] and tool == "thumbs" else ""
                trips = f", {row['roundTrips']:g} round trips" if "roundTrips" in row else ""
                cells.append(f"{row['requests']:g} requests{trips}, {run.fmt_bytes(row['bytes'])}{ratio}, {row['wallMs']:.0f} ms")
            shown = run.fmt_bytes(bound["bytes"]) if bound["hasCues"] else "no Cues"
            lines.append(f"| {KIND_NAMES[kind]} | {layout} | {shown} | " + " | ".join(cells) + " |")
    with open(os.path.join(args.results, "matroska-layouts.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
