#!/usr/bin/env python3
"""Writes keyframe-looks.json: how every keyframe of every corpus movie looks to ffmpeg.

    Fixtures/real-world/make-keyframe-looks.py

Needs ffmpeg and the expectations make-expectations.py wrote (the stream, its time base and ffmpeg's pts shift).
For every file whose video ffmpeg decodes and that outcomes.json does not name as an error, ffmpeg decodes its
keyframes alone (`-skip_frame nokey`, as a keyframe is decoded for a thumbnail) and measures each with its own
filters:

  blackframe (threshold 32, amount 0)  `pblack`: the percentage of luma samples under 32 (8-bit signal values);
  signalstats                          `yavg`, `ylow`, `yhigh`: the mean and the 10th and 90th percentiles of luma,
                                       scaled to 0-255 for a deeper signal;
  entropy                              `entropy`: the luma histogram's entropy, normalised to 0-1 (bits over the
                                       bit depth).

Each keyframe is listed at its time on the ISO timeline (ffmpeg's pts less `ffmpegPtsShift`, in seconds) with its
pts as ffmpeg gives it. The best-frame test judges by these alone (RealWorldCorpus.KeyframeLook): near-black by
`blackframe`'s default (98 % of the samples under 32), flat when the normalised entropy is under 0.3 or the 10th
and 90th percentiles are equal (80 % of the samples on one level).
"""
import json, os, re, subprocess, sys, tempfile
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
MEDIA = os.path.join(HERE, "media")
EXPECT = os.path.join(HERE, "expectations")
OUT = os.path.join(HERE, "keyframe-looks.json")


def looks(path, stream_index, time_base, shift, depth):
    """[{time, pts, pblack, yavg, ylow, yhigh, entropy}] of the keyframes ffmpeg decodes from `stream_index`."""
    scale = 255 / ((1 << depth) - 1)
    with tempfile.TemporaryDirectory() as scratch:
        printed = os.path.join(scratch, "metadata.txt")
        chain = f"blackframe=amount=0:threshold=32,signalstats,entropy,metadata=mode=print:file={printed}"
        # ffmpeg may stop with an error after the frames it could decode (a file cut short): those are kept.
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-copyts", "-skip_frame", "nokey", "-i", path,
                        "-map", f"0:{stream_index}", "-vf", chain, "-f", "null", "-"], capture_output=True)
        frames, current = [], None
        for line in open(printed) if os.path.exists(printed) else []:
            header = re.match(r"frame:\d+\s+pts:(-?\d+)", line)
            if header:
                current = {"pts": int(header.group(1))}
                frames.append(current)
                continue
            key, _, value = line.strip().partition("=")
            if current is not None and value:
                current[key] = float(value)
    result = []
    for frame in frames:
        bits = frame.get("lavfi.entropy.normalized_entropy.normal.Y")
        result.append({
            "time": float((frame["pts"] - shift) * time_base), "pts": frame["pts"],
            "pblack": frame.get("lavfi.blackframe.pblack"),
            "yavg": round(frame["lavfi.signalstats.YAVG"] * scale, 3),
            "ylow": round(frame["lavfi.signalstats.YLOW"] * scale, 3),
            "yhigh": round(frame["lavfi.signalstats.YHIGH"] * scale, 3),
            "entropy": round(bits, 5) if bits is not None else None,
        })
    return sorted(result, key=lambda frame: frame["time"])


def main():
    outcomes = json.load(open(os.path.join(HERE, "outcomes.json")))
    table = {}
    for name in sorted(os.listdir(MEDIA)):
        if name.startswith(".") or "error" in outcomes.get(name, {}):
            continue
        expectation = json.load(open(os.path.join(EXPECT, name + ".json")))
        video = expectation.get("video")
        if not video or not video.get("ffmpegDecodes"):
            continue
        depth = int(m.group(1)) if (m := re.search(r"p(\d\d)", video.get("pixFmt") or "")) else 8
        frames = looks(os.path.join(MEDIA, name), video["streamIndex"], Fraction(video["timeBase"]),
                       video.get("ffmpegPtsShift", 0), depth)
        table[name] = frames
        print(f"{name}: {len(frames)} keyframes", file=sys.stderr)
    with open(OUT, "w") as out:
        json.dump(table, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
