#!/usr/bin/env python3
"""One thumbnail of the benchmark movie as a bare transport stream file, per packet layout and per kind of origin,
beside ffmpeg and ffmpegthumbnailer on the same origin; and thumbs at times between keyframes.

Layouts, made here from the 60 s 1080p H.264 movie (a keyframe every 2 s, AAC) by `ffmpeg -c copy`: a `.ts` of
188-byte packets, and a `.m2ts` of 192-byte packets (`-mpegts_m2ts_mode 1`, as Blu-ray and AVCHD camcorders write).
The picture is asked for at 30 s, a keyframe (and the picture thumbs makes there is checked to be the one it makes of
the MP4 at 30 s, byte for byte); then, from the nginx-like origin, at 7.3, 15 and 44.9 s, between keyframes, where
the search reads back and on to the nearest keyframe.

The bound is the issue's: the keyframe's packets (from the packet its PES starts in to the next video PES's, other
streams' packets between them included; ffprobe's position of the keyframe nearest the time, the walk here) plus
376 KiB (2,048 packets of 188 bytes: the ends, the probes). Limits: at most 14 requests and 3 times the bound.

The kinds of origin are server.py's. Writes Benchmarks/results/transport-files.md and .json.

Usage: Benchmarks/harness/transport-files.py --thumbs PATH [--runs N] [--rtt-ms 50] [--mbit 50]
"""
import datetime
import filecmp
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
BETWEEN = [7.3, 15, 44.9]
SLACK = 376 * 1024
LAYOUTS = {"TS, 188-byte packets (ffmpeg -c copy)": ("h264-1080p-60s.ts", []),
           "M2TS, 192-byte packets (-mpegts_m2ts_mode 1)": ("h264-1080p-60s.m2ts", ["-mpegts_m2ts_mode", "1"])}


def make_layouts():
    """The layouts' files in the media folder (made once): name -> file."""
    source = os.path.join(run.MEDIA_DIR, SOURCE)
    for file, extra in LAYOUTS.values():
        path = os.path.join(run.MEDIA_DIR, file)
        if not os.path.exists(path):
            subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", source, "-c", "copy", "-f", "mpegts", *extra,
                            path], check=True)
    return {name: file for name, (file, _) in LAYOUTS.items()}


def keyframe_packets(path, t):
    """The bytes of the keyframe nearest `t`: from the packet its PES starts in (ffprobe's position) to the packet the
    next PES of the same stream starts in, read here."""
    position, _ = run.nearest_keyframe(path, t)
    with open(path, "rb") as f:
        head = f.read(1024)
        size, sync = (192, 4) if head[4] == 0x47 and head[196] == 0x47 else (188, 0)
        f.seek(position)
        first = f.read(size)
        pid = (first[sync + 1] & 0x1F) << 8 | first[sync + 2]
        offset = position + size
        while True:
            packet = f.read(size)
            if len(packet) < size:
                return offset - position
            if packet[sync + 1] & 0x40 and ((packet[sync + 1] & 0x1F) << 8 | packet[sync + 2]) == pid:
                return offset - position
            offset += size


def main():
    ap = run.arguments(__doc__, runs=3, network=True)
    ap.add_argument("--results", default=run.RESULTS)
    args = ap.parse_args()
    layouts = make_layouts()
    bounds = {}
    for name, file in layouts.items():
        path = os.path.join(run.MEDIA_DIR, file)
        bounds[name] = {str(t): keyframe_packets(path, t) + SLACK for t in [TIME] + BETWEEN}
    rows = []
    started = time.monotonic()
    with run.served() as (server, tmp):
        same = {}
        movie = os.path.join(tmp, "movie")
        subprocess.run(run.commands("thumbs", args.thumbs, os.path.join(run.MEDIA_DIR, SOURCE), TIME, movie), check=True,
                       capture_output=True)
        for kind in run.origin_kinds(server, args):
            for name, file in layouts.items():
                url = f"{server.base}/{file}"
                for tool, runs in (("thumbs", args.runs), ("ffmpeg", 1), ("ffmpegthumbnailer", 1)):
                    if tool != "thumbs" and not shutil.which(tool):
                        continue
                    out = os.path.join(tmp, "o")
                    row = run.measure_runs(server, run.commands(tool, args.thumbs, url, TIME, out), runs)
                    row.update(kind=kind, layout=name, tool=tool, time=TIME)
                    if tool == "thumbs" and not row["failures"]:
                        same[f"{kind} {name}"] = filecmp.cmp(out + ".png", movie + ".png", shallow=False)
                    rows.append(row)
                    report(row)
            if kind == "multipart":
                for name, file in layouts.items():
                    for t in BETWEEN:
                        row = run.measure_runs(server, run.commands("thumbs", args.thumbs, f"{server.base}/{file}", t,
                                                                    os.path.join(tmp, "b")), args.runs)
                        row.update(kind=kind, layout=name, tool="thumbs", time=t)
                        rows.append(row)
                        report(row)
    write(args, rows, bounds, same, time.monotonic() - started)


def report(row):
    print(f"{row['kind']:9} {row['layout']:46} {row['time']:>5} {row['tool']:17} {row['requests']:>3} requests "
          f"{row['bytes']:>10} bytes {row['wallMs']:7.0f} ms" + (f" FAILED {row.get('error', '')}" if row["failures"] else ""),
          flush=True)


def cell(row, bound):
    if row is None:
        return ""
    if row["failures"]:
        return "failed"
    trips = f", {row['roundTrips']:g} round trips" if "roundTrips" in row else ""
    ratio = f" ({row['bytes'] / bound:.2f}x)" if row["tool"] == "thumbs" else ""
    return f"{row['requests']:g} requests{trips}, {run.fmt_bytes(row['bytes'])}{ratio}, {row['wallMs']:.0f} ms"


def write(args, rows, bounds, same, elapsed):
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, "transport-files.json"), "w") as f:
        json.dump({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                   "machine": platform.platform(), "rttMs": args.rtt_ms, "mbit": args.mbit, "runs": args.runs,
                   "bounds": bounds, "sameAsMovie": same,
                   "rows": [{k: v for k, v in r.items() if k != "log"} for r in rows]}, f, indent=1)
    lines = [f"# Transport stream files: one picture at {TIME} s from each kind of origin", "",
             f"{args.rtt_ms:g} ms RTT, {args.mbit:g} Mbit/s, median of {args.runs} runs of thumbs (ffmpeg and "
             f"ffmpegthumbnailer once); {elapsed:.0f} s. Bound: the keyframe's packets + 376 KiB; thumbs' ratio is of "
             "all it read. Limits: 14 requests, 3x.", "",
             "| origin | layout | bound | thumbs: requests, round trips, bytes (x bound), wall | ffmpeg: requests, bytes, wall | ffmpegthumbnailer: requests, bytes, wall |",
             "| --- | --- | ---: | --- | --- | --- |"]
    for kind in run.ORIGIN_KINDS:
        for layout in bounds:
            bound = bounds[layout][str(TIME)]
            cells = [cell(next((r for r in rows if r["kind"] == kind and r["layout"] == layout and r["tool"] == tool
                                and r["time"] == TIME), None), bound) for tool in ("thumbs", "ffmpeg", "ffmpegthumbnailer")]
            lines.append(f"| {KIND_NAMES[kind]} | {layout} | {run.fmt_bytes(bound)} | " + " | ".join(cells) + " |")
    lines += ["", f"Thumbs' picture at {TIME} s is the MP4's, byte for byte: "
              + ", ".join(f"{key}: {'yes' if value else 'NO'}" for key, value in same.items()), "",
              "Between keyframes (multipart origin): time, bound, thumbs", "",
              "| layout | time | bound | thumbs: requests, round trips, bytes (x bound), wall |", "| --- | ---: | ---: | --- |"]
    for layout in bounds:
        for t in BETWEEN:
            row = next((r for r in rows if r["layout"] == layout and r["time"] == t), None)
            bound = bounds[layout][str(t)]
            lines.append(f"| {layout} | {t:g} s | {run.fmt_bytes(bound)} | {cell(row, bound)} |")
    with open(os.path.join(args.results, "transport-files.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
