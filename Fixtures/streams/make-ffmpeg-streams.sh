#!/usr/bin/env bash
# Cuts HLS streams of MPEG-TS segments from the package's own fixtures with FFmpeg's hls and mpegts muxers (stream
# copy: the coded pictures are the fixtures' own, so a picture of a stream is the picture of the movie it was cut
# from). Run from anywhere; needs ffmpeg. The output is the same on every run of the same FFmpeg (5.1.x here).
#
#   ffmpeg-hls-ts-h264-bframes      h264-bframes.mp4 (H.264 with B-frames), a segment per 0.48 s GOP
#   ffmpeg-hls-ts-hevc-single-file  hevc-8bit.mp4 (HEVC with open GOPs: CRA pictures and leading pictures), one
#                                   file with EXT-X-BYTERANGE segments
#   ffmpeg-hls-ts-muxed-aac         audio-video.mp4 (H.264 and AAC interleaved in each segment)
#   ffmpeg-hls-fmp4-h264-bframes    h264-bframes.mp4 as fragmented MP4 segments after an EXT-X-MAP init segment,
#                                   two 0.48 s GOPs a segment
#   ffmpeg-ts-timestamp-wrap        h264-bframes.mp4 in one TS whose 33-bit timestamps wrap 2.2 s in
#   ffmpeg-hls-ts-iframes           audio-video.mp4, two GOPs a segment, with an I-frame playlist and a master
#   ffmpeg-hls-fmp4-best-frame-stretches  best-frame-stretches.mp4 as fragmented MP4 segments of four 0.48 s GOPs
#                                   (segments start at 0, 1.92, 3.84, 5.76, 7.68, 9.6 and 11.52 s)
#   ffmpeg-hls-ts-h264-mbaff        codecs/media/h264-mbaff.mp4 (interlaced H.264, MBAFF), a segment per 0.48 s GOP:
#                                   what only a build with the FFmpegDecoders trait decodes
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixtures="$here/.."

hls() {  # folder, source, extra hls options...
    local folder="$here/$1" source="$fixtures/$2"
    shift 2
    rm -rf "$folder"
    mkdir -p "$folder"
    (cd "$folder" && ffmpeg -v error -nostdin -i "$source" -c copy -f hls -hls_time 0.4 -hls_playlist_type vod "$@" index.m3u8)
}

hls ffmpeg-hls-ts-h264-bframes h264-bframes.mp4 -hls_segment_filename segment%d.ts
hls ffmpeg-hls-ts-h264-mbaff codecs/media/h264-mbaff.mp4 -hls_segment_filename segment%d.ts
hls ffmpeg-hls-ts-hevc-single-file hevc-8bit.mp4 -hls_flags single_file
hls ffmpeg-hls-ts-muxed-aac audio-video.mp4 -hls_segment_filename segment%d.ts
hls ffmpeg-hls-fmp4-h264-bframes h264-bframes.mp4 -hls_segment_type fmp4 -hls_segment_filename segment%d.m4s \
    -hls_time 0.9
hls ffmpeg-hls-fmp4-best-frame-stretches best-frame-stretches.mp4 -hls_segment_type fmp4 \
    -hls_segment_filename segment%d.m4s -hls_time 1.9

# 95440.2 s after the mpegts muxer's own 1.4 s start, the first timestamps are 2.2 s short of 2^33 ticks of 90 kHz.
rm -rf "$here/ffmpeg-ts-timestamp-wrap"
mkdir -p "$here/ffmpeg-ts-timestamp-wrap"
ffmpeg -v error -nostdin -i "$fixtures/h264-bframes.mp4" -c copy -output_ts_offset 95440.2 -f mpegts \
    "$here/ffmpeg-ts-timestamp-wrap/wrap.ts"

# Two GOPs a segment (0.96 s), and beside the media playlist an I-frame playlist written from ffprobe's packets
# (write-iframe-playlist.py); a master names both.
hls ffmpeg-hls-ts-iframes audio-video.mp4 -hls_segment_filename segment%d.ts -hls_time 0.9
"$here/write-iframe-playlist.py" "$here/ffmpeg-hls-ts-iframes" --resolution 320x240 --codecs avc1.64000d,mp4a.40.2 \
    --iframe-codecs avc1.64000d --bandwidth 400000 --iframe-bandwidth 100000 --target-duration 1
