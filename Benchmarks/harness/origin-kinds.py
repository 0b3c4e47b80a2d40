#!/usr/bin/env python3
"""One thumbnail (and one storyboard) of every medium from each kind of origin, beside ffmpegthumbnailer.

The kinds are how the server (server.py) answers a request for several ranges: `multipart` (multipart/byteranges, as
nginx), `whole` (200 and the whole file, as Amazon S3, Google Cloud Storage, Cloudflare R2 and Azure Blob), `refuse`
(416, as Alibaba OSS). A single range is always answered with 206. Every run is a new `thumbs` process, so each is a
first contact with the origin. The server counts requests, connections and body bytes actually written (a response
the client stops reading is counted as far as it was sent), at one RTT per request and per new connection and a
shared bandwidth cap.

Writes Benchmarks/results/origin-kinds.md and origin-kinds.json.

Usage: Benchmarks/harness/origin-kinds.py --thumbs PATH [--runs N] [--rtt-ms 50] [--mbit 50] [--media NAME ...]
"""
import datetime
import json
import os
import platform
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness: its media, server, timing and lower bounds)

KIND_NAMES = {"multipart": "1 multipart (nginx)", "whole": "2 whole object (S3, GCS, R2, Azure)", "refuse": "3 416 (OSS)"}
STORYBOARD_MEDIUM = "1080p H.264 faststart"


def storyboard_command(thumbs, url, out):
    return [thumbs, "storyboard", url, "-o", out, "--stats"]


def main():
    ap = run.arguments(__doc__, runs=3, network=True)
    ap.add_argument("--media", nargs="*", help=f"names from: {', '.join(run.MEDIA)}")
    ap.add_argument("--results", default=run.RESULTS)
    args = ap.parse_args()
    names = args.media or list(run.MEDIA)
    bounds = {name: run.lower_bound(name) for name in names}
    rows = []
    started = time.monotonic()
    with run.served() as (server, tmp):
        for kind in run.origin_kinds(server, args):
            for name in names:
                file, t, _ = run.MEDIA[name]
                url = f"{server.base}/{file}"
                tools = [("thumbs", args.runs)]
                if shutil.which("ffmpegthumbnailer"):
                    tools.append(("ffmpegthumbnailer", 1))
                for tool, runs in tools:
                    row = run.measure_runs(server, run.commands(tool, args.thumbs, url, t, os.path.join(tmp, "o")), runs)
                    row.update(kind=kind, medium=name, tool=tool, product="thumbnail",
                               bound=bounds[name]["bytes"], minRoundTrips=bounds[name]["roundTrips"])
                    rows.append(row)
                    report(row)
            if STORYBOARD_MEDIUM in names:
                file = run.MEDIA[STORYBOARD_MEDIUM][0]
                out = os.path.join(tmp, f"sb-{kind}")
                shutil.rmtree(out, ignore_errors=True)
                url = f"{server.base}/{file}"
                # What locating the index costs on this origin (`thumbs info`: the same first read), then the
                # storyboard, whose bound is that plus the keyframes it uses.
                index = run.measure_runs(server, [args.thumbs, "info", url, "--stats"], 1)
                row = run.measure_runs(server, storyboard_command(args.thumbs, url, out), 1)
                row.update(kind=kind, medium=STORYBOARD_MEDIUM, tool="thumbs", product="storyboard",
                           indexBytes=index["bytes"], bound=index["bytes"] + row.get("keyframeBytes", 0))
                rows.append(row)
                report(row)
    write(args, rows, bounds, time.monotonic() - started)


def report(row):
    print(f"{row['kind']:10} {row['product']:10} {row['medium']:28} {row['tool']:18} req={row['requests']:>4} "
          f"conn={row['connections']:>3} trips={row.get('roundTrips', '-')!s:>3} bytes={row['bytes']:>11,.0f} "
          f"x{ratio(row)} wall={row['wallMs']:8.1f} ms"
          + (f"  FAILED {row['failures']}/{row['runs']}: {row.get('error', '')}" if row["failures"] else ""), flush=True)


def ratio(row):
    """The bytes over the bound, or `?` when the bound is not known (locating the index failed)."""
    return f"{row['bytes'] / row['bound']:.2f}" if row["bound"] else "?"


def cell(row):
    if row is None:
        return ""
    if row["failures"] == row["runs"]:
        return "failed"
    trips = f"{row['roundTrips']:g}" if "roundTrips" in row else "-"
    return (f"{trips} / {row['requests']:g} / {run.fmt_bytes(row['bytes'])} (x{ratio(row)}) / "
            f"{row['wallMs']:.0f} ms")


def write(args, rows, bounds, elapsed):
    os.makedirs(args.results, exist_ok=True)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = "Benchmarks/harness/origin-kinds.py " + " ".join(sys.argv[1:])
    by = {(r["kind"], r["product"], r["medium"], r["tool"]): r for r in rows}
    L = [f"# A thumbnail from each kind of origin", "",
         f"{now}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}, {elapsed:.0f} s. "
         f"Command: `{cmd}` (run by `Benchmarks/run-harness.sh`).", "",
         f"At {args.rtt_ms:g} ms RTT (one more for each new connection) and {args.mbit:g} Mbit/s shared. Each cell: "
         "round trips (thumbs' `--stats`) / requests / bytes the server wrote (x the lower bound: ftyp + moov + the "
         "keyframe, and the moof for a fragmented file) / wall ms; thumbs the median of "
         f"{args.runs} runs, each a new process (a first contact with the origin), ffmpegthumbnailer one run.", "",
         "| medium | tool | " + " | ".join(KIND_NAMES[k] for k in run.ORIGIN_KINDS) + " |",
         "| --- | --- | " + " | ".join("---" for _ in run.ORIGIN_KINDS) + " |"]
    media = list(dict.fromkeys(r["medium"] for r in rows if r["product"] == "thumbnail"))
    for name in media:
        for tool in ("thumbs", "ffmpegthumbnailer"):
            cells = [cell(by.get((k, "thumbnail", name, tool))) for k in run.ORIGIN_KINDS]
            if any(cells):
                L.append(f"| {name} | {tool} | " + " | ".join(cells) + " |")
    boards = [by.get((k, "storyboard", STORYBOARD_MEDIUM, "thumbs")) for k in run.ORIGIN_KINDS]
    if any(boards):
        L += ["", f"A storyboard of {STORYBOARD_MEDIUM} (`thumbs storyboard`, its default cues: one a keyframe here): the same "
              "cells, the bound being the index as it costs on that origin (the bytes of `thumbs info --stats`: the "
              "first read's ends) plus the keyframes used (`keyframeBytes` of `--stats`).", "",
              "| product | " + " | ".join(KIND_NAMES[k] for k in run.ORIGIN_KINDS) + " |",
              "| --- | " + " | ".join("---" for _ in run.ORIGIN_KINDS) + " |",
              "| storyboard | " + " | ".join(cell(b) for b in boards) + " |"]
    failures = [r for r in rows if r["failures"]]
    if failures:
        L += ["", "Failures:", ""] + [f"- {r['kind']}, {r['medium']}, {r['tool']}: {r.get('error', '')}" for r in failures]
    path = os.path.join(args.results, "origin-kinds.md")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
    with open(os.path.join(args.results, "origin-kinds.json"), "w") as f:
        json.dump({"date": now, "command": cmd, "rttMs": args.rtt_ms, "mbit": args.mbit, "bounds": bounds,
                   "rows": rows}, f, indent=1)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
