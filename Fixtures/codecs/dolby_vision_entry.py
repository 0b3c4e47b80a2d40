#!/usr/bin/env python3
"""Turns an HEVC or H.264 movie's sample entry into a Dolby Vision one, as Dolby's ISO BMFF specification lays it
out: the entry renamed (dvh1, dvhe, dva1, dvav) and a Dolby Vision configuration record (dvcC for profiles up to 7,
dvvC above) added after the entry's other boxes. The bitstream is unchanged: a single-layer Dolby Vision stream's
base layer is plain HEVC or H.264 (a real one also carries RPU NAL units, which decoders of the base layer skip).

    dolby_vision_entry.py IN OUT --entry dvh1 --profile 8 --level 4 --compatibility 1

The movie's moov must come after its mdat (ffmpeg's default), so that growing it moves no sample.
"""
import argparse, os, struct, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "real-world"))
from movie_boxes import boxes  # the box walker the real-world corpus's script reads movies with


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--entry", required=True, choices=["dvh1", "dvhe", "dva1", "dvav"])
    parser.add_argument("--profile", type=int, required=True)
    parser.add_argument("--level", type=int, required=True)
    parser.add_argument("--compatibility", type=int, required=True)
    options = parser.parse_args()
    data = bytearray(open(options.input, "rb").read())
    found = list(boxes(data, 0, len(data)))
    first = {}
    for kind, payload, end in found:
        first.setdefault(kind, (payload, end))
    assert first[b"moov"][0] > first[b"mdat"][0], "moov must follow mdat"
    # The path to the first track's first entry: moov/trak/mdia/minf/stbl/stsd, each box's start kept to grow it (the
    # walk gives the first track's boxes before any other's).
    path = [first[kind][0] - 8 for kind in [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stsd"]]
    entry_start = first[b"stsd"][0] + 8  # stsd: version, flags, entry count
    entry_size, entry_type = struct.unpack(">I4s", data[entry_start:entry_start + 8])
    assert entry_type in (b"hvc1", b"hev1", b"avc1", b"avc3"), entry_type
    record = struct.pack(">BBHB", 1, 0, (options.profile << 9) | (options.level << 3) | 0b101, options.compatibility << 4)
    record += bytes(24 - len(record))
    box = struct.pack(">I4s", 8 + len(record), b"dvcC" if options.profile <= 7 else b"dvvC") + record
    entry_end = entry_start + entry_size
    data[entry_end:entry_end] = box
    data[entry_start + 4:entry_start + 8] = options.entry.encode()
    data[entry_start:entry_start + 4] = struct.pack(">I", entry_size + len(box))
    for box_start in path:
        size = struct.unpack(">I", data[box_start:box_start + 4])[0]
        assert size > 1, "a box with a 64-bit or open size on the way"
        data[box_start:box_start + 4] = struct.pack(">I", size + len(box))
    open(options.output, "wb").write(data)

if __name__ == "__main__":
    main()
