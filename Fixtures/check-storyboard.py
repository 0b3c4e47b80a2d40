#!/usr/bin/env python3
"""Checks a storyboard made by `thumbs storyboard` against ffprobe and ffmpeg, not against our own code.

    usage: Fixtures/check-storyboard.py MEDIA.mp4 STORYBOARD_DIR [--min-psnr 35] [--max-tiles N]

STORYBOARD_DIR holds storyboard.vtt, storyboard.json and the images (make it with `--format png`, or the
JPEG loss counts against the PSNR). Checks:

  1. the WebVTT by rule: `WEBVTT` first; every timing line `HH:MM:SS.mmm --> HH:MM:SS.mmm`; cues start at 0,
     follow each other with no gap or overlap, and end at ffprobe's stream duration (whole milliseconds);
     every `#xywh=` region lies inside its image (image sizes from ffprobe);
  2. each cue's keyframe (manifest `keyframeTime`) is ffprobe's key packet nearest the cue start (earlier on a tie);
  3. each distinct keyframe's tile (cut from its sheet by ffmpeg's crop filter) against ffmpeg's own picture of
     that packet (`-ss` before it, `-copyts`, `select=eq(pts,N)`), scaled straight to the tile size with an area
     filter in Y'CbCr 4:4:4 and converted by zscale with the stream's matrix and range, as
     make-thumbnail-references.sh does (SDR only): PSNR over RGB must be at least --min-psnr dB.

Prints one line per check and a summary; exits 1 on any failure.
"""
import argparse, json, math, os, re, subprocess, sys

MATRIX = {None: "709", "bt709": "709", "unknown": "709", "smpte170m": "170m", "bt470bg": "470bg",
          "bt2020nc": "2020_ncl"}
RANGE = {None: "limited", "tv": "limited", "unknown": "limited", "pc": "full"}

def run(args, binary=False):
    result = subprocess.run(args, check=True, capture_output=True)
    return result.stdout if binary else result.stdout.decode()

def probe_stream(path):
    out = json.loads(run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=width,height,time_base,duration,color_space,color_range:stream_side_data=rotation",
                          "-of", "json", path]))
    return out["streams"][0]

def key_pts(path):
    out = run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags",
               "-of", "csv=p=0", path])
    keys = []
    for line in out.splitlines():
        parts = line.split(",")
        if len(parts) >= 2 and parts[0] not in ("", "N/A") and "K" in parts[1]:
            keys.append(int(parts[0]))
    return sorted(keys)

def image_size(path):
    out = run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", path]).strip()
    width, height = out.split(",")[:2]
    return int(width), int(height)

def parse_vtt(text):
    lines = text.split("\n")
    problems = []
    if lines[0] != "WEBVTT":
        problems.append("first line is not WEBVTT")
    timing = re.compile(r"^(\d{2,}):([0-5]\d):([0-5]\d)\.(\d{3}) --> (\d{2,}):([0-5]\d):([0-5]\d)\.(\d{3})$")
    cues = []
    for index, line in enumerate(lines):
        if "-->" not in line:
            continue
        match = timing.match(line)
        if not match:
            problems.append(f"line {index + 1}: bad timing '{line}'")
            continue
        g = [int(x) for x in match.groups()]
        start = ((g[0] * 60 + g[1]) * 60 + g[2]) * 1000 + g[3]
        end = ((g[4] * 60 + g[5]) * 60 + g[6]) * 1000 + g[7]
        cues.append((start, end, lines[index + 1], index + 1))
    return cues, problems

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("media")
    parser.add_argument("directory")
    parser.add_argument("--min-psnr", type=float, default=35)
    parser.add_argument("--max-tiles", type=int, default=1000)
    args = parser.parse_args()

    stream = probe_stream(args.media)
    num, den = (int(x) for x in stream["time_base"].split("/"))
    timescale = den // num if num == 1 else den / num
    duration_ms = round(float(stream["duration"]) * 1000)
    keys = key_pts(args.media)
    text = open(os.path.join(args.directory, "storyboard.vtt")).read()
    manifest = json.load(open(os.path.join(args.directory, "storyboard.json")))
    cues, problems = parse_vtt(text)

    # 1. rules
    if not cues or cues[0][0] != 0:
        problems.append("the first cue does not start at 0")
    if cues and cues[-1][1] != duration_ms:
        problems.append(f"the last cue ends at {cues[-1][1]} ms, ffprobe's duration is {duration_ms} ms")
    for a, b in zip(cues, cues[1:]):
        if a[1] != b[0]:
            problems.append(f"line {b[3]}: gap or overlap ({a[1]} -> {b[0]})")
    sizes = {}
    regions = []
    for start, end, reference, line in cues:
        if end <= start:
            problems.append(f"line {line}: end not after start")
        file, _, fragment = reference.partition("#")
        if file not in sizes:
            sizes[file] = image_size(os.path.join(args.directory, file))
        if fragment:
            x, y, w, h = (int(v) for v in fragment.removeprefix("xywh=").split(","))
            width, height = sizes[file]
            if x < 0 or y < 0 or w <= 0 or h <= 0 or x + w > width or y + h > height:
                problems.append(f"line {line}: region {x},{y},{w},{h} outside {width}x{height}")
            regions.append((file, x, y, w, h))
        else:
            width, height = sizes[file]
            regions.append((file, 0, 0, width, height))
    print(f"rules: {len(cues)} cues over {duration_ms} ms, {len(sizes)} images, "
          f"{'ok' if not problems else str(len(problems)) + ' problems'}")

    # 2. keyframe choice
    chosen = []
    wrong = 0
    for index, (start, _, _, _) in enumerate(cues):
        nearest = min(keys, key=lambda p: (abs(p * 1000 - start * timescale), p))
        chosen.append(nearest)
        ours = round(manifest["cues"][index]["keyframeTime"] * timescale)
        if ours != nearest:
            wrong += 1
            problems.append(f"cue {index}: keyframe pts {ours}, ffprobe's nearest key packet is {nearest}")
    print(f"keyframes: {len(set(chosen))} distinct for {len(cues)} cues, {wrong} differ from ffprobe's nearest")

    # 3. tiles against ffmpeg
    matrix = MATRIX.get(stream.get("color_space"), "709")
    rng = RANGE.get(stream.get("color_range"), "limited")
    seen = set()
    figures = []
    for index, pts in enumerate(chosen):
        if pts in seen or len(seen) >= args.max_tiles:
            continue
        seen.add(pts)
        file, x, y, w, h = regions[index]
        ours = run(["ffmpeg", "-v", "error", "-i", os.path.join(args.directory, file), "-vf", f"crop={w}:{h}:{x}:{y}",
                    "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], binary=True)
        seek = max(0.0, pts / timescale - 1.0)
        chain = (f"select=eq(pts\\,{pts}),scale={w}:{h}:flags=area+accurate_rnd+full_chroma_int,format=yuv444p,"
                 f"zscale=matrixin={matrix}:rangein={rng}:matrix={matrix}:range=full:agamma=0,format=gbrp,format=rgb24")
        theirs = run(["ffmpeg", "-v", "error", "-ss", f"{seek:.6f}", "-copyts", "-i", args.media, "-map", "0:v:0",
                      "-vf", chain, "-fps_mode", "passthrough", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                     binary=True)
        if len(ours) != len(theirs) or not ours:
            problems.append(f"pts {pts}: tile {len(ours)} bytes, ffmpeg {len(theirs)} bytes")
            continue
        total = sum((a - b) * (a - b) for a, b in zip(ours, theirs))
        value = math.inf if total == 0 else 10 * math.log10(255 * 255 / (total / len(ours)))
        figures.append(value)
        if value < args.min_psnr:
            problems.append(f"pts {pts}: psnr {value:.2f} dB")
    if figures:
        print(f"tiles: {len(figures)} compared with ffmpeg, psnr min {min(figures):.2f} dB, "
              f"mean {sum(figures) / len(figures):.2f} dB")
    for problem in problems[:20]:
        print("problem:", problem)
    print("OK" if not problems else f"FAILED: {len(problems)} problems")
    sys.exit(1 if problems else 0)

main()
