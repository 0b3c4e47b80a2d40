#!/usr/bin/env python3
"""Writes an I-frame playlist of an HLS stream of MPEG-TS segments from ffprobe's packets, and a master naming both.

Each keyframe's byte range runs from the TS packet that starts its PES packet to the one that starts the next video PES
packet, and lasts until the next keyframe (RFC 8216, EXT-X-I-FRAMES-ONLY), as shaka-packager writes one. Reads
FOLDER/index.m3u8 and its segments; writes FOLDER/iframes.m3u8 and FOLDER/master.m3u8.

Usage: write-iframe-playlist.py FOLDER --resolution WxH --codecs C --iframe-codecs C --bandwidth B --iframe-bandwidth B
                                [--target-duration S]
"""
import argparse
import json
import os
import subprocess


def keyframes(folder):
    """(time, segment, offset, length) of every keyframe of the media playlist's segments, and where the last ends."""
    segments = [line.strip() for line in open(os.path.join(folder, "index.m3u8")) if line.strip().endswith(".ts")]
    found, end = [], 0.0
    for name in segments:
        path = os.path.join(folder, name)
        probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_packets", "-show_entries",
                                           "packet=pts_time,duration_time,pos,flags", "-of", "json", path],
                                          capture_output=True, text=True, check=True).stdout)["packets"]
        size = os.path.getsize(path)
        for index, packet in enumerate(probe):
            time = float(packet["pts_time"])
            end = max(end, time + float(packet.get("duration_time", 0)))
            if "K" in packet["flags"]:
                after = int(probe[index + 1]["pos"]) if index + 1 < len(probe) else size
                found.append((time, name, int(packet["pos"]), after - int(packet["pos"])))
    return found, end


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--resolution", required=True)
    parser.add_argument("--codecs", required=True)
    parser.add_argument("--iframe-codecs", required=True)
    parser.add_argument("--bandwidth", type=int, required=True)
    parser.add_argument("--iframe-bandwidth", type=int, required=True)
    parser.add_argument("--target-duration", type=int, default=1)
    args = parser.parse_args()
    listed, end = keyframes(args.folder)
    lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:%d" % args.target_duration, "#EXT-X-PLAYLIST-TYPE:VOD",
             "#EXT-X-I-FRAMES-ONLY"]
    for index, (time, name, offset, length) in enumerate(listed):
        following = listed[index + 1][0] if index + 1 < len(listed) else end
        lines += ["#EXTINF:%.6f," % (following - time), "#EXT-X-BYTERANGE:%d@%d" % (length, offset), name]
    lines.append("#EXT-X-ENDLIST")
    open(os.path.join(args.folder, "iframes.m3u8"), "w").write("\n".join(lines) + "\n")
    open(os.path.join(args.folder, "master.m3u8"), "w").write("\n".join([
        "#EXTM3U",
        '#EXT-X-STREAM-INF:BANDWIDTH=%d,RESOLUTION=%s,CODECS="%s"' % (args.bandwidth, args.resolution, args.codecs),
        "index.m3u8",
        '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=%d,RESOLUTION=%s,CODECS="%s",URI="iframes.m3u8"'
        % (args.iframe_bandwidth, args.resolution, args.iframe_codecs),
    ]) + "\n")


if __name__ == "__main__":
    main()
