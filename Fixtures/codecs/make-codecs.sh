#!/usr/bin/env bash
# Writes the codec corpus: one small movie per codec, profile or sample entry that the default decoders (openh264,
# libde265, dav1d, libvpx) do not cover, each encoded by ffmpeg from testsrc2 (moving), and their independent
# expectations and ffmpeg's pictures by the real-world corpus's script:
#
#   Fixtures/codecs/media/<name>         the movies (below)
#   Fixtures/codecs/expectations/, references/, REPORT.md   by Fixtures/real-world/make-expectations.py --corpus
#   Fixtures/codecs/outcomes.json        (by hand) the typed error each file without a decoder here must give
#
#   usage: Fixtures/codecs/make-codecs.sh   (from anywhere; needs ffmpeg with libx264, libx265 and zscale, ffprobe,
#          mkvmerge, python3; builds nothing: REPORT.md is run with .build/debug/thumbs when it is there)
#
# Decoded in the default build:
#   mjpeg-*.mov     Motion JPEG (ffmpeg's mjpeg encoder, full-range 4:2:0, 4:2:2, 4:4:4) under the sample entries
#                   cameras and editors write: jpeg (QuickTime Photo-JPEG, ffmpeg's default), mjpa, AVDJ, dmb1
#   mjpeg-*.mkv     the same in Matroska: V_MJPEG, and V_MS/VFW/FOURCC with MJPG
#   png-*.mov       PNG frames (ffmpeg's png encoder): RGB, RGBA (a moving alpha ramp), 16-bit RGB, grey, palette
#   dv*.mp4         Dolby Vision entries over x264/x265 streams (dolby_vision_entry.py renames the entry and adds the
#                   dvcC/dvvC record): dvh1 profile 8.1 (PQ, BT.2020), dvhe 8.4 (HLG), dva1 and dvav profile 9 (SDR)
# Refused with a typed error naming the codec (outcomes.json):
#   h264-high10, h264-422, h264-444, h264-mbaff (interlaced, -flags +ildct+ilme, both fields of one instant),
#   h264-interlaced-motion (MBAFF, fields of two instants), prores-422hq, prores-4444,
#   mpeg4-part2 (and in Matroska, V_MPEG4/ISO/ASP), h263, mpeg2
#
# ffmpeg's encoders run single-threaded with bitexact flags: the same build gives the same bytes (mkvmerge writes a new
# SegmentUID and date into mjpeg-422-vfw.mkv each time).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FIX="$(cd "$HERE/.." && pwd)"
MEDIA="$HERE/media"
for tool in ffmpeg ffprobe mkvmerge python3; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found" >&2; exit 1; }
done
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
src() { echo "testsrc2=size=$1:rate=$2:duration=$3"; }
exact=(-threads 1 -flags:v +bitexact -fflags +bitexact)
rm -rf "$MEDIA" && mkdir -p "$MEDIA"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

# Motion JPEG: 160x120, 1 s at 10 fps (every frame a keyframe).
ff -f lavfi -i "$(src 160x120 10 1)" -c:v mjpeg -q:v 3 -pix_fmt yuvj420p "${exact[@]}" "$MEDIA/mjpeg-420-jpeg.mov"
ff -f lavfi -i "$(src 160x120 10 1)" -c:v mjpeg -q:v 3 -pix_fmt yuvj422p -tag:v mjpa "${exact[@]}" "$MEDIA/mjpeg-422-mjpa.mov"
ff -f lavfi -i "$(src 160x120 10 1)" -c:v mjpeg -q:v 3 -pix_fmt yuvj444p -tag:v AVDJ "${exact[@]}" "$MEDIA/mjpeg-444-avdj.mov"
ff -f lavfi -i "$(src 160x120 10 1)" -c:v mjpeg -q:v 3 -pix_fmt yuvj420p -tag:v dmb1 "${exact[@]}" "$MEDIA/mjpeg-420-dmb1.mov"
# ... and in Matroska: V_MJPEG (ffmpeg), and V_MS/VFW/FOURCC with MJPG (mkvmerge from an AVI, as old cameras' files are).
ff -f lavfi -i "$(src 160x120 10 1)" -c:v mjpeg -q:v 3 -pix_fmt yuvj420p "${exact[@]}" "$MEDIA/mjpeg-420.mkv"
ff -f lavfi -i "$(src 160x120 10 1)" -c:v mjpeg -q:v 3 -pix_fmt yuvj422p "${exact[@]}" "$work/mjpeg.avi"
mkvmerge --quiet --disable-track-statistics-tags -o "$MEDIA/mjpeg-422-vfw.mkv" "$work/mjpeg.avi"

# PNG frames: 96x72, 1 s at 5 fps.
ff -f lavfi -i "$(src 96x72 5 1)" -c:v png -pix_fmt rgb24 "${exact[@]}" "$MEDIA/png-rgb24.mov"
ff -f lavfi -i "$(src 96x72 5 1),format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*mod(X+T*40,W)/W'" \
  -c:v png -pix_fmt rgba "${exact[@]}" "$MEDIA/png-rgba.mov"
ff -f lavfi -i "$(src 96x72 5 1)" -c:v png -pix_fmt rgb48be "${exact[@]}" "$MEDIA/png-rgb48.mov"
ff -f lavfi -i "$(src 96x72 5 1)" -c:v png -pix_fmt gray "${exact[@]}" "$MEDIA/png-gray.mov"
ff -f lavfi -i "$(src 96x72 5 1)" -c:v png -pix_fmt pal8 "${exact[@]}" "$MEDIA/png-pal8.mov"

# Dolby Vision: 320x180, 1 s at 25 fps, a keyframe every 12 frames.
x265common="log-level=error:keyint=12:min-keyint=12:scenecut=0:bframes=3:frame-threads=1:pools=none"
ff -f lavfi -i "$(src 320x180 25 1)" -c:v libx265 -pix_fmt yuv420p10le -tag:v hvc1 \
  -x265-params "$x265common:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc" "${exact[@]}" "$work/pq.mp4"
ff -f lavfi -i "$(src 320x180 25 1)" -c:v libx265 -pix_fmt yuv420p10le -tag:v hev1 \
  -x265-params "$x265common:repeat-headers=1:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc" "${exact[@]}" "$work/hlg.mp4"
ff -f lavfi -i "$(src 320x180 25 1)" -c:v libx264 -g 12 -keyint_min 12 -sc_threshold 0 -bf 0 "${exact[@]}" "$work/avc1.mp4"
ff -f lavfi -i "$(src 320x180 25 1)" -c:v libx264 -g 12 -keyint_min 12 -sc_threshold 0 -bf 0 -x264-params repeat-headers=1 \
  -tag:v avc3 "${exact[@]}" "$work/avc3.mp4"
python3 "$HERE/dolby_vision_entry.py" "$work/pq.mp4" "$MEDIA/dvh1-8.1-pq.mp4" --entry dvh1 --profile 8 --level 4 --compatibility 1
python3 "$HERE/dolby_vision_entry.py" "$work/hlg.mp4" "$MEDIA/dvhe-8.4-hlg.mp4" --entry dvhe --profile 8 --level 4 --compatibility 4
python3 "$HERE/dolby_vision_entry.py" "$work/avc1.mp4" "$MEDIA/dva1-9.mp4" --entry dva1 --profile 9 --level 5 --compatibility 2
python3 "$HERE/dolby_vision_entry.py" "$work/avc3.mp4" "$MEDIA/dvav-9.mp4" --entry dvav --profile 9 --level 5 --compatibility 2

# What the default decoders refuse: 160x120, 1 s at 25 fps, a keyframe every 12 frames.
gop=(-g 12 -keyint_min 12 -sc_threshold 0)
ff -f lavfi -i "$(src 160x120 25 1)" -c:v libx264 "${gop[@]}" -pix_fmt yuv420p10le "${exact[@]}" "$MEDIA/h264-high10.mp4"
ff -f lavfi -i "$(src 160x120 25 1)" -c:v libx264 "${gop[@]}" -pix_fmt yuv422p10le "${exact[@]}" "$MEDIA/h264-422.mp4"
ff -f lavfi -i "$(src 160x120 25 1)" -c:v libx264 "${gop[@]}" -pix_fmt yuv444p "${exact[@]}" "$MEDIA/h264-444.mp4"
ff -f lavfi -i "$(src 160x120 25 1)" -c:v libx264 "${gop[@]}" -flags +ildct+ilme -x264-params tff=1 "${exact[@]}" \
  "$MEDIA/h264-mbaff.mp4"
# ... and fields from two instants: testsrc2 at 50 frames a second, woven two by two (top first) into 25 interlaced
# frames of 640x360, coded MBAFF: a moving edge combs.
ff -f lavfi -i "$(src 640x360 50 1)" -vf "tinterlace=mode=interleave_top,setfield=tff" -c:v libx264 "${gop[@]}" \
  -flags +ildct+ilme -x264-params tff=1 "${exact[@]}" "$MEDIA/h264-interlaced-motion.mp4"
ff -f lavfi -i "$(src 160x120 25 0.4)" -c:v prores_ks -profile:v 3 "${exact[@]}" "$MEDIA/prores-422hq.mov"
ff -f lavfi -i "$(src 160x120 25 0.4)" -c:v prores_ks -profile:v 4 -pix_fmt yuva444p10le "${exact[@]}" "$MEDIA/prores-4444.mov"
ff -f lavfi -i "$(src 160x120 25 1)" -c:v mpeg4 "${gop[@]}" -q:v 4 "${exact[@]}" "$MEDIA/mpeg4-part2.mp4"
ff -i "$MEDIA/mpeg4-part2.mp4" -c copy "${exact[@]:2}" "$MEDIA/mpeg4-part2.mkv"
ff -f lavfi -i "$(src 176x144 25 1)" -c:v h263 "${gop[@]}" -q:v 4 "${exact[@]}" "$MEDIA/h263.3gp"
ff -f lavfi -i "$(src 160x120 25 1)" -c:v mpeg2video "${gop[@]}" -q:v 4 "${exact[@]}" "$MEDIA/mpeg2.mp4"

for file in "$MEDIA"/*; do
  printf '%-22s %s\n' "$(basename "$file")" "$(ffprobe -v error -select_streams v:0 -show_entries \
    stream=codec_name,codec_tag_string,profile,pix_fmt,field_order -of csv=p=0 "$file")"
done
python3 "$FIX/real-world/make-expectations.py" --corpus "$HERE"
