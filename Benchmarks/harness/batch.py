#!/usr/bin/env python3
"""A library of movies thumbnailed three ways in one run: `thumbs batch`, a shell loop of `thumbs thumbnail`, and a
shell loop of ffmpegthumbnailer; then storyboards: `thumbs batch --storyboard` against a shell loop of ffmpeg's
keyframe-only storyboard (`-skip_frame nokey`, as Jellyfin's fast trickplay mode).

The library is a tree of the real-world corpus (Fixtures/real-world/media) and the fixtures (Fixtures/*.mp4 and
*.mov), copied --copies times (hard links, in copy-1/, copy-2/, ...). Every way starts from an empty output folder,
one process (the batch) or one process a file (the loops, run by bash), and is timed by wall clock; peak RSS is the
largest resident set of the way's processes (wait4's maximum over bash and every child it waited for). Each way's
files made are counted from what it wrote. Thumbnails are 320 px on the longer side, PNG. Storyboards: 160 px wide
tiles, 10 x 10 JPEG sheets, a picture every duration / 50 seconds (at least 1 s: `thumbs`' default interval under 15
minutes); ffmpeg decodes keyframes alone and takes each one at least that interval after the last one taken
(`select`; its `fps` filter gives nothing for a clip shorter than the interval).

Then `thumbs batch` alone over a tree --copies-large times as large (a thousand files and more): its peak RSS beside
the first, to show memory does not grow with the number of files.

Writes Benchmarks/results/batch.md and batch.json.

Usage: Benchmarks/harness/batch.py --thumbs PATH [--copies 2] [--copies-large 8] [--runs 1]
"""
import datetime
import glob
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness: timing)

FIXTURES = os.path.join(run.ROOT, "Fixtures")
RESULTS = os.path.join(run.ROOT, "Benchmarks", "results")


MOVIE_EXTENSIONS = {".mp4", ".m4v", ".mov", ".qt", ".3gp", ".3g2", ".mj2"}  # what `thumbs batch` takes from a directory


def sources():
    """The corpus's and the fixtures' movies, by the extensions `thumbs batch` walks a directory for."""
    is_movie = lambda path: os.path.splitext(path)[1].lower() in MOVIE_EXTENSIONS
    corpus = sorted(filter(is_movie, glob.glob(os.path.join(FIXTURES, "real-world", "media", "*"))))
    fixtures = sorted(filter(is_movie, glob.glob(os.path.join(FIXTURES, "*"))))
    return [("corpus", path) for path in corpus] + [("fixtures", path) for path in fixtures]


def make_tree(root, copies):
    files = []
    for copy in range(1, copies + 1):
        for folder, path in sources():
            target = os.path.join(root, f"copy-{copy}", folder, os.path.basename(path))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.link(path, target)
            files.append(target)
    return files


def duration(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                         capture_output=True, text=True).stdout.strip()
    try:
        return float(out)
    except ValueError:
        return 0.0


def loop(commands):
    """One bash process running `commands` (argument lists) one after the other, failures let through."""
    script = "\n".join(" ".join(shlex.quote(part) for part in command) + " >/dev/null 2>&1 || true" for command in commands)
    return ["bash", "-c", script]


def count(folder, suffixes):
    """Files made: named with one of `suffixes`, not hidden, not empty (ffmpegthumbnailer leaves an empty file where
    it fails)."""
    made = 0
    for parent, _, names in os.walk(folder):
        made += sum(1 for name in names if name.endswith(suffixes) and not name.startswith(".")
                    and os.path.getsize(os.path.join(parent, name)) > 0)
    return made


def measure(name, command, out, suffixes, files, runs):
    samples = []
    for _ in range(runs):
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        wall, done, rss = run.timed(command, timeout=3600)
        samples.append({"wallMs": wall, "peakRssKiB": rss, "status": done.returncode})
    best = min(samples, key=lambda sample: sample["wallMs"])
    made = count(out, suffixes)
    row = {"way": name, "files": files, "made": made, "wallMs": best["wallMs"], "peakRssKiB": max(s["peakRssKiB"] for s in samples),
           "filesPerSecond": files / (best["wallMs"] / 1000), "status": best["status"], "runs": runs}
    print(f"{name}: {made}/{files} in {best['wallMs'] / 1000:.1f} s, {row['filesPerSecond']:.1f} files/s, "
          f"peak RSS {row['peakRssKiB'] / 1024:.0f} MiB", file=sys.stderr)
    return row


def main():
    ap = run.arguments(__doc__, runs=1)
    ap.add_argument("--copies", type=int, default=2)
    ap.add_argument("--copies-large", type=int, default=8)
    args = ap.parse_args()
    if not shutil.which("ffmpegthumbnailer"):
        raise SystemExit("ffmpegthumbnailer is not installed (apt-get install ffmpegthumbnailer)")
    scratch = tempfile.mkdtemp()
    try:
        tree = os.path.join(scratch, "library")
        files = make_tree(tree, args.copies)
        out = os.path.join(scratch, "out")
        rows = []
        rows.append(measure("thumbs batch", [args.thumbs, "batch", tree, "-o", out, "--max-size", "320"], out, (".png",),
                            len(files), args.runs))
        rows.append(measure("thumbs thumbnail, a shell loop", loop(
            [[args.thumbs, "thumbnail", path, "--max-size", "320", "-o", os.path.join(out, f"{n}.png")]
             for n, path in enumerate(files)]), out, (".png",), len(files), args.runs))
        rows.append(measure("ffmpegthumbnailer, a shell loop", loop(
            [["ffmpegthumbnailer", "-i", path, "-o", os.path.join(out, f"{n}.png"), "-s", "320"]
             for n, path in enumerate(files)]), out, (".png",), len(files), args.runs))
        boards = []
        boards.append(measure("thumbs batch --storyboard", [args.thumbs, "batch", tree, "-o", out, "--max-size", "320",
                                                             "--storyboard"], out, (".vtt",), len(files), args.runs))
        ffmpeg_boards = []
        for n, path in enumerate(files):
            interval = max(1.0, duration(path) / 50)
            keyframe_after = f"select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,{interval:.3f})'"
            ffmpeg_boards.append(["ffmpeg", "-nostdin", "-v", "error", "-y", "-skip_frame", "nokey", "-i", path, "-map",
                                  "0:V:0", "-an", "-vf", f"{keyframe_after},scale=160:-2,tile=10x10", "-vsync", "vfr",
                                  "-q:v", "5", os.path.join(out, f"{n}-%03d.jpg")])
        boards.append(measure("ffmpeg -skip_frame nokey storyboard, a shell loop", loop(ffmpeg_boards), out, ("-001.jpg",),
                              len(files), args.runs))
        large_tree = os.path.join(scratch, "large")
        large = make_tree(large_tree, args.copies_large)
        flat = measure("thumbs batch, larger library", [args.thumbs, "batch", large_tree, "-o", out, "--max-size", "320"],
                       out, (".png",), len(large), args.runs)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    write(rows, boards, flat, args)


def write(rows, boards, flat, args):
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    ffmpeg = "ffmpeg " + subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True).stdout.split()[2]
    thumbnailer = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "ffmpegthumbnailer"], capture_output=True,
                                 text=True).stdout.strip()
    environment = f"{platform.machine()} Linux, {os.cpu_count()} cores, {ffmpeg}, ffmpegthumbnailer {thumbnailer}"
    with open(os.path.join(RESULTS, "batch.json"), "w") as out:
        json.dump({"measured": when, "environment": environment, "thumbnails": rows, "storyboards": boards,
                   "larger": flat}, out, indent=1)
        out.write("\n")
    lines = ["# A library of movies: batch against loops", "",
             f"Measured {when} ({environment}), best of {args.runs} run(s), with",
             f"`Benchmarks/harness/batch.py --thumbs <release thumbs> --copies {args.copies} --copies-large "
             f"{args.copies_large} --runs {args.runs}`.", "",
             "| way | files | made | wall s | files/s | peak RSS MiB |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for row in rows + boards + [flat]:
        lines.append(f"| {row['way']} | {row['files']} | {row['made']} | {row['wallMs'] / 1000:.1f} | "
                     f"{row['filesPerSecond']:.1f} | {row['peakRssKiB'] / 1024:.0f} |")
    with open(os.path.join(RESULTS, "batch.md"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
