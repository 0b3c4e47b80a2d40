#!/usr/bin/env python3
"""Writes the hand-built inputs: small seeds (seeds/) and the minimal reproducers of the findings (findings/).

Each is one moov with one video track of one sample; only the box that matters differs.
Run from anywhere: python3 Fuzz/make-inputs.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
IDENTITY = struct.pack('>9i', 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def box(kind, payload=b''):
    return struct.pack('>I', 8 + len(payload)) + kind.encode('latin1') + payload


def full(kind, version, flags, payload):
    return box(kind, struct.pack('>I', (version << 24) | flags) + payload)


def mvhd(timescale=1000):
    return full('mvhd', 0, 0, struct.pack('>IIII', 0, 0, timescale, 1) + struct.pack('>IH', 0x10000, 0x100)
                + b'\0' * 10 + IDENTITY + b'\0' * 24 + struct.pack('>I', 2))


def tkhd():
    return full('tkhd', 0, 3, struct.pack('>IIIII', 0, 0, 1, 0, 1) + b'\0' * 8 + b'\0' * 8 + IDENTITY
                + struct.pack('>II', 16 << 16, 16 << 16))


def mdhd(timescale=1000):
    return full('mdhd', 0, 0, struct.pack('>IIIIHH', 0, 0, timescale, 1, 0x55c4, 0))


def edts(segment_duration, media_time):
    """An edts with one version-1 elst entry."""
    return box('edts', full('elst', 1, 0, struct.pack('>IQqI', 1, segment_duration, media_time, 0x10000)))


def avc1(sps):
    """An avc1 sample entry whose avcC holds the one SPS NAL unit `sps` and no PPS."""
    avcc = box('avcC', bytes([1, sps[1], sps[2], sps[3], 0xff, 0xe1]) + struct.pack('>H', len(sps)) + sps + b'\0')
    return box('avc1', b'\0' * 6 + struct.pack('>H', 1) + b'\0' * 16 + struct.pack('>HH', 16, 16)
               + struct.pack('>II', 0x480000, 0x480000) + b'\0' * 4 + struct.pack('>H', 1) + b'\0' * 32
               + struct.pack('>Hh', 24, -1) + avcc)


def movie(movie_timescale=1000, media_timescale=1000, edit=b'', extra_stbl=b'', entries=()):
    stbl = box('stbl', full('stsd', 0, 0, struct.pack('>I', len(entries)) + b''.join(entries))
               + full('stts', 0, 0, struct.pack('>III', 1, 1, 1))
               + extra_stbl
               + full('stsc', 0, 0, struct.pack('>IIII', 1, 1, 1, 1))
               + full('stsz', 0, 0, struct.pack('>II', 1, 1))
               + full('stco', 0, 0, struct.pack('>II', 1, 0)))
    hdlr = full('hdlr', 0, 0, struct.pack('>I', 0) + b'vide' + b'\0' * 13)
    mdia = box('mdia', mdhd(media_timescale) + hdlr + box('minf', stbl))
    return box('moov', mvhd(movie_timescale) + box('trak', tkhd() + edit + mdia))


# An H.264 SPS (profile 128, so it has the scaling-matrix syntax) whose first delta_scale is -(2^31 - 1):
# found by SPSFuzzer and minimised with -minimize_crash=1.
SCALING_LIST_SPS = bytes.fromhex('28800001ff00000001ffffff00')

INPUTS = {
    # Seeds: tiny, valid, so that every mutated byte lands in a table.
    'seeds/minimal-movie.mp4': movie(),
    'seeds/minimal-edit.mp4': movie(edit=edts(1, 5)),
    'seeds/minimal-ctts-v1.mp4': movie(extra_stbl=full('ctts', 1, 0, struct.pack('>Iii', 1, 1, -1))),
    # Findings (see Fuzz/README.md, "Findings").
    'findings/elst-media-time-overflow.bin': movie(edit=edts(1, 0x7fff_ffff_ffff_ffff)),
    'findings/elst-duration-rescale-overflow.bin': movie(movie_timescale=1, media_timescale=0xffff_ffff,
                                                         edit=edts(0xffff_ffff, 0)),
    'findings/h264-scaling-list-overflow.bin': movie(entries=[avc1(SCALING_LIST_SPS)]),
    'findings/h264-scaling-list-overflow.sps.bin': b'\0' + SCALING_LIST_SPS,  # SPSFuzzer input: selector byte + NAL
    'findings/extreme-time-distance.bin': movie(),
    'findings/extreme-time-edit.bin': movie(edit=edts(1, 5)),
    'findings/extreme-time-ctts.bin': movie(extra_stbl=full('ctts', 1, 0, struct.pack('>Iii', 1, 1, -1))),
}

for path, data in INPUTS.items():
    full_path = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full_path), exist_ok=True)
    with open(full_path, 'wb') as f:
        f.write(data)
    print(f'{path}: {len(data)} bytes')
