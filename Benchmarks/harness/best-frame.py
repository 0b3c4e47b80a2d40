#!/usr/bin/env python3
"""The poster each way picks, and what it costs: `thumbs --best`, `thumbs --skip-dark` and ffmpeg's `thumbnail` filter.

Over the real-world corpus (every movie Fixtures/real-world/keyframe-looks.json lists: ffmpeg decodes it and it is
not an expected error) and the best-frame fixture (Fixtures/best-frame-stretches.mp4: black, flat, blurred, sharp,
faded, blurred, 2 s each), each from the harness server (server.py, multipart, no added delay), each process new:

  thumbs best       thumbs thumbnail URL --best --max-size 320            (10 keyframes over 5-95 %, scored)
  thumbs skip-dark  thumbs thumbnail URL --skip-dark --max-size 320       (10 %, then later keyframes while dark)
  ffmpeg thumbnail  ffmpeg -i URL -vf thumbnail,scale=320:320:force_original_aspect_ratio=decrease -frames:v 1
                    (the most typical of the first 100 decoded frames: every frame decoded)

Each picture is judged by ffmpeg's filters on its luma, the same way for all three: converted to limited-range Y'CbCr
(as the decoded keyframes of keyframe-looks.json mostly are), near-black when `blackframe` finds 98 % of its luma
under 32, flat when `entropy`'s normalised entropy is under 0.3 or `signalstats`' 10th and 90th percentiles are equal
(RealWorldCorpus.KeyframeLook, the test's judge). Bytes are the server's count of
body bytes; ms the process's wall time (median of --runs).

Writes Benchmarks/results/best-frame.md and best-frame.json, and best-frame-picks.png: the three pictures side by
side for the movies named in PICTURED.

Usage: Benchmarks/harness/best-frame.py --thumbs PATH [--runs 3]
       Benchmarks/harness/best-frame.py --thumbs PATH --report    (best-frame.md again from best-frame.json)
"""
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness: its server and timing)

FIXTURES = os.path.join(run.ROOT, "Fixtures")
LOOKS = os.path.join(FIXTURES, "real-world", "keyframe-looks.json")
RESULTS = os.path.join(run.ROOT, "Benchmarks", "results")
FIXTURE = "best-frame-stretches.mp4"
PICTURED = [FIXTURE, "shaka-h264-288p-colr-sidx-5seg.mp4", "gst-explosion-large-composition-offset.mp4",
            "shaka-h264-encv-avc1-dual-entry-clear-samples.mp4"]
WAYS = ["thumbs best", "thumbs skip-dark", "ffmpeg thumbnail"]


def command(way, thumbs, url, out):
    if way == "thumbs best":
        return [thumbs, "thumbnail", url, "--best", "--max-size", "320", "--stats", "-o", out]
    if way == "thumbs skip-dark":
        return [thumbs, "thumbnail", url, "--skip-dark", "--max-size", "320", "--stats", "-o", out]
    return ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "verbose", "-y", "-i", url, "-map", "0:V:0", "-vf",
            "thumbnail,scale=320:320:force_original_aspect_ratio=decrease", "-frames:v", "1", out]


def judge(picture):
    """(verdict, measures) of a picture by ffmpeg's filters on its grey levels."""
    done = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", picture, "-vf",
                           "scale=out_range=tv,format=yuv420p,blackframe=amount=0:threshold=32,signalstats,entropy,"
                           "metadata=mode=print:file=-",
                           "-f", "null", "-"], capture_output=True, text=True)
    values = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition("=")
        try:
            values[key.strip()] = float(value)
        except ValueError:
            continue
    pblack = values.get("lavfi.blackframe.pblack", 0)
    entropy = values.get("lavfi.entropy.normalized_entropy.normal.Y", 1)
    low, high = values.get("lavfi.signalstats.YLOW"), values.get("lavfi.signalstats.YHIGH")
    verdict = "near-black" if pblack >= 98 else "flat" if entropy < 0.3 or low == high else "fine"
    return verdict, {"pblack": pblack, "entropy": round(entropy, 4), "ylow": low, "yhigh": high}


def judged_poor(key):
    """A keyframe of keyframe-looks.json judged as `judge` judges a picture (RealWorldCorpus.KeyframeLook)."""
    return (key["pblack"] or 0) >= 98 or (key["entropy"] if key["entropy"] is not None else 1) < 0.3 \
        or key["ylow"] == key["yhigh"]


def picked_time(way, sample):
    if way.startswith("thumbs"):
        return sample.get("stats", {}).get("actualTime")
    found = re.findall(r"pts_time=(-?[\d.]+)\) selected", sample.get("stderr", ""))
    return float(found[-1]) if found else None


def measure(server, way, thumbs, url, out, runs):
    samples = []
    for _ in range(runs):
        server.get("/_reset")
        wall, done, _ = run.timed(command(way, thumbs, url, out))
        stats = server.settled_stats()
        sample = {"ms": wall, "bytes": stats["bodyBytes"], "requests": stats["requests"], "ok": done.returncode == 0,
                  "stderr": done.stderr}
        lines = done.stderr.strip().splitlines()
        if way.startswith("thumbs") and done.returncode == 0 and lines and lines[-1].startswith("{"):
            sample["stats"] = json.loads(lines[-1])
        samples.append(sample)
    ok = [s for s in samples if s["ok"]]
    if not ok or not os.path.exists(out):
        return {"ok": False, "error": samples[-1]["stderr"].strip().splitlines()[-1:] or ["failed"]}
    verdict, measures = judge(out)
    return {"ok": True, "ms": statistics.median(s["ms"] for s in ok), "bytes": statistics.median(s["bytes"] for s in ok),
            "requests": statistics.median(s["requests"] for s in ok), "time": picked_time(way, ok[0]),
            "verdict": verdict, "measures": measures}


def montage(pictures, target):
    """The pictures of each pictured movie in a row (best, skip-dark, ffmpeg), rows stacked, each cell 320x180."""
    rows = [row for row in pictures if all(os.path.exists(p) for p in row)]
    if not rows:
        return
    inputs, chains, labels = [], [], []
    for r, row in enumerate(rows):
        for c, path in enumerate(row):
            inputs += ["-i", path]
            chains.append(f"[{len(labels)}:v]scale=320:180:force_original_aspect_ratio=decrease,"
                          f"pad=320:180:(ow-iw)/2:(oh-ih)/2:color=0x808080,format=rgb24[p{r}{c}]")
            labels.append(f"[p{r}{c}]")
    layout = "|".join(f"{c * 320}_{r * 180}" for r in range(len(rows)) for c in range(3))
    chain = ";".join(chains) + ";" + "".join(labels) + f"xstack=inputs={len(labels)}:layout={layout}"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *inputs, "-filter_complex", chain, "-frames:v", "1",
                    target], check=True)


def main():
    ap = run.arguments(__doc__, runs=3)
    ap.add_argument("--report", action="store_true", help="only rewrite best-frame.md from best-frame.json")
    args = ap.parse_args()
    if args.report:
        kept = json.load(open(os.path.join(RESULTS, "best-frame.json")))
        args.runs = kept["runs"]
        return write(kept["movies"], args, kept["measured"], kept.get("environment"))
    names = [FIXTURE] + sorted(json.load(open(LOOKS)))
    server = run.Server(FIXTURES)
    scratch = tempfile.mkdtemp()
    table, pictures = {}, []
    try:
        for number, name in enumerate(names):
            path = name if name == FIXTURE else f"real-world/media/{name}"
            url = f"{server.base}/{path}"
            table[name] = {}
            row = []
            for way in WAYS:
                out = os.path.join(scratch, f"{number}-{WAYS.index(way)}.png")
                table[name][way] = measure(server, way, args.thumbs, url, out, args.runs)
                row.append(out)
            if name in PICTURED:
                pictures.append(row)
            print(name, {way: (r.get("verdict"), r.get("time")) for way, r in table[name].items()}, file=sys.stderr)
        montage(pictures, os.path.join(RESULTS, "best-frame-picks.png"))
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    write(table, args)


def write(table, args, when=None, environment=None):
    when = when or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    ffmpeg = "ffmpeg " + subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True).stdout.split()[2]
    environment = environment or f"{platform.machine()} Linux, {os.cpu_count()} cores ({ffmpeg})"
    with open(os.path.join(RESULTS, "best-frame.json"), "w") as out:
        json.dump({"measured": when, "environment": environment, "runs": args.runs, "movies": table}, out, indent=1,
                  sort_keys=True)
        out.write("\n")
    lines = [f"# Best frame: the pick and its cost", "",
             f"Measured {when} on {environment}, median of {args.runs} runs, with",
             "`Benchmarks/harness/best-frame.py --thumbs <release thumbs> --runs " + str(args.runs) + "`.", "",
             "## Totals", "",
             "Near-black or flat pictures, and of those the ones of movies with a keyframe ffmpeg finds fine",
             "(keyframe-looks.json; the fixture has its sharp stretch): a better picture was there to take.", "",
             "| way | pictures | near-black | flat | ... with a fine keyframe | failed | bytes | ms (sum) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    looks = json.load(open(LOOKS))
    has_fine = {name: name not in looks or any(not judged_poor(key) for key in looks[name]) for name in table}
    for way in WAYS:
        rows = [(name, movie[way]) for name, movie in table.items()]
        made = [(name, r) for name, r in rows if r["ok"]]
        count = lambda verdict: sum(r["verdict"] == verdict for _, r in made)
        avoidable = sum(r["verdict"] != "fine" and has_fine[name] for name, r in made)
        lines.append(f"| {way} | {len(made)} | {count('near-black')} | {count('flat')} | {avoidable} | "
                     f"{len(rows) - len(made)} | {sum(r['bytes'] for _, r in made):,.0f} | "
                     f"{sum(r['ms'] for _, r in made):,.0f} |")
    lines += ["", "## Each movie", "", "Picked time in seconds, the judge's verdict, bytes read, wall ms.", "",
              "| movie | " + " | ".join(WAYS) + " |", "| --- | " + " | ".join("---" for _ in WAYS) + " |"]
    for name, ways in table.items():
        cells = []
        for way in WAYS:
            r = ways[way]
            if not r["ok"]:
                cells.append("failed")
                continue
            when_picked = "?" if r["time"] is None else f"{r['time']:.2f}"
            cells.append(f"{when_picked} s {r['verdict']}, {r['bytes']:,.0f} B, {r['ms']:.0f} ms")
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    with open(os.path.join(RESULTS, "best-frame.md"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
