#!/usr/bin/env python3
"""Models the locator's first read (the head and the tail of the file in one request) over the benchmark media, for
candidate sizes: the round trips and bytes one keyframe thumbnail would cost, and the wall time past the minimum at
50 ms RTT and 50 Mbit/s. The model follows MovieLocator: a moov inside either end costs no further read, one
partly outside costs one read of what the end lacks, a keyframe inside either end costs no read. The boxes come from
the files and the keyframes from ffprobe (run.py's lower_bound). Run Benchmarks/media/make-media.sh first.

Usage: Benchmarks/harness/first-read.py [HEAD_KIB,TAIL_KIB ...]
"""
import os
import sys

import run

KIB = 1024
CANDIDATES = [(128, 0), (128, 64), (64, 64), (80, 80), (96, 96), (32, 32), (16, 16)]


def model(head, tail, bound, moov, size):
    """(round trips, bytes) of one thumbnail with a first read of `head` and `tail` bytes."""
    if size <= head + tail:
        return 1, size
    _, moov_offset, moov_size = moov
    held = [(0, head), (size - tail, size)]
    trips, fetched = 1, head + tail
    if not any(a <= moov_offset and moov_offset + moov_size <= b for a, b in held):
        trips += 1
        start = max(moov_offset, head if moov_offset < head else moov_offset)
        fetched += max(0, min(moov_offset + moov_size, size - tail) - start)
    key_offset, key_size = bound["keyframeOffset"], bound["parts"]["keyframe"]
    if not any(a <= key_offset and key_offset + key_size <= b for a, b in held):
        trips += 1
        fetched += key_size
    return trips, fetched


def main():
    candidates = [tuple(int(x) for x in arg.split(",")) for arg in sys.argv[1:]] or CANDIDATES
    media = {}
    for name, (file, _, trips) in run.MEDIA.items():
        boxes = run.top_level_boxes(os.path.join(run.MEDIA_DIR, file))
        if any(kind == "moof" for kind, _, _ in boxes):
            continue  # fragmented files are read by their sidx, not by this model
        media[name] = (run.lower_bound(name), next(b for b in boxes if b[0] == "moov"), trips)
    print("Per medium: round trips / bytes over the lower bound / ms past the network bound at 50 ms and 50 Mbit/s.")
    print("| head, tail | " + " | ".join(media) + " | sum of ms past |")
    print("| --- |" + " ---: |" * (len(media) + 1))
    for head_kib, tail_kib in candidates:
        cells, total = [], 0.0
        for bound, moov, minimum in media.values():
            trips, fetched = model(head_kib * KIB, tail_kib * KIB, bound, moov, bound["fileSize"])
            past = (trips - minimum) * 50 + (fetched - bound["bytes"]) * 8 / 50e6 * 1000
            total += past
            cells.append(f"{trips} / {fetched / bound['bytes']:.2f} / {past:+.0f}")
        print(f"| {head_kib} KiB, {tail_kib} KiB | " + " | ".join(cells) + f" | {total:.0f} |")


if __name__ == "__main__":
    main()
