#!/usr/bin/env bash
# Writes ffmpeg's thumbnails of the video fixtures, the references the Thumbs
# renderer is checked against (Tests/ThumbsTests/ReferenceThumbnailTests.swift):
#
#   Fixtures/thumbnails/<name>.<role>.png   for every <name>.frames.json and every role in it
#
#   usage: Fixtures/make-thumbnail-references.sh   (from anywhere; needs ffmpeg with zscale, ffprobe, python3)
#
# Each PNG is ffmpeg's own picture of the frame whose pts the .frames.json names
# (-copyts and select=eq(pts,N), as Fixtures/README.md describes), then:
#
#   1. autorotated (ffmpeg's default; the display matrix, mirror included:
#      checked that Debian's ffmpeg 5.1 draws `mirrored` with hflip only);
#   2. sized in one area-averaging swscale pass (`flags=area`) straight to the
#      fitted size: square pixels along the wider axis (SAR h:v > 1 widens,
#      < 1 heightens, floor, as Track.displaySize), fitted inside 160x160, the
#      limiting side exactly 160, the other rounded half up, never upscaled.
#      The size is computed here from ffprobe's width/height/SAR/rotation in
#      the .expect.json, not by our code;
#   3. scaled in Y'CbCr to 4:4:4 at that size (chroma at full output
#      resolution), then converted to RGB by zscale (floating point) with the
#      stream's matrix and range. An unspecified range counts as limited; an
#      unspecified matrix as BT.601 (170m) below HD and BT.709 from 1280 wide
#      or 577 high up, the guess the renderer documents (CoreVideo's and mpv's);
#   4. HDR (transfer smpte2084 / arib-std-b67): zscale to linear light with
#      1.0 = 100 cd/m2 (npl=100; PQ through its EOTF, HLG through its inverse
#      OETF and the BT.2100 OOTF for a 1000 cd/m2 display), BT.2020 -> BT.709
#      primaries in linear light, tonemap=hable with desat=0 and peak=10
#      (1000 cd/m2), then zscale to BT.709 with its BT.1886 (gamma 2.4) inverse
#      EOTF, full-range RGB: the operator Sources/Thumbs/Rendering/ToneMapper.swift
#      documents. Every zscale runs with agamma=0: exact transfer functions, and
#      for HLG the OOTF on luminance as BT.2100 has it (zscale's default,
#      agamma=1, applies the 1.2 gamma to each channel instead);
#   5. written as an 8-bit RGB (rgb24) PNG, compressed as hard as the encoder can,
#      with the colour tags cleared (setparams) so that ffmpeg writes no gAMA or
#      cHRM chunk: a reader that honours gAMA (libpng's simplified API does)
#      must get the stored values back unchanged.
#
# Outputs are overwritten. A run with the same ffmpeg/zimg build gives the same bytes.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE/thumbnails"
BOX=160

for tool in ffmpeg ffprobe python3; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found" >&2; exit 1; }
done
FILTERS="$(ffmpeg -hide_banner -filters 2>/dev/null)"   # not piped into grep -q: SIGPIPE would trip pipefail
grep -q ' zscale ' <<<"$FILTERS" || {
  echo "error: this ffmpeg has no zscale filter (libzimg); the HDR references need it" >&2; exit 1; }

mkdir -p "$OUT"

python3 - "$HERE" "$OUT" "$BOX" <<'PY_EOF'
import glob, json, os, struct, subprocess, sys

here, out, box = sys.argv[1], sys.argv[2], int(sys.argv[3])

MATRIX = {"bt709": "709", "smpte170m": "170m", "bt470bg": "470bg",
          "bt2020nc": "2020_ncl", "fcc": "fcc", "smpte240m": "smpte2400m"}
RANGE = {None: "limited", "tv": "limited", "unknown": "limited", "pc": "full"}
HDR_TRANSFERS = {"smpte2084", "arib-std-b67"}

def round_half_up(numerator, denominator):
    return (2 * numerator + denominator) // (2 * denominator)

def display_size(expect):
    """Cropped size, widened (or heightened) to square pixels, turned when the matrix turns 90/270 degrees."""
    width, height = expect["width"], expect["height"]
    sar = expect.get("sampleAspectRatio") or "1:1"
    h, v = (int(part) for part in sar.split(":"))
    if h > 0 and v > 0:
        if h > v:
            width = width * h // v
        elif v > h:
            height = height * v // h
    rotation = expect.get("rotation")
    if rotation is not None and round(abs(rotation)) % 180 == 90:
        width, height = height, width
    return max(width, 1), max(height, 1)

def fitted(width, height):
    """Inside box x box, aspect kept, the limiting side exactly box, never upscaled."""
    if width <= box and height <= box:
        return width, height
    if box * height <= box * width:  # box/width <= box/height: width limits
        return box, max(1, round_half_up(height * box, width))
    return max(1, round_half_up(width * box, height)), box

def chunk_types(path):
    data = open(path, "rb").read()
    position, types = 8, []
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        types.append(kind)
        position += 12 + length
    return types

total = 0
count = 0
for frames_path in sorted(glob.glob(os.path.join(here, "*.frames.json"))):
    name = os.path.basename(frames_path)[: -len(".frames.json")]
    frames = json.load(open(frames_path))
    expect = json.load(open(os.path.join(here, name + ".expect.json")))
    stream = expect.get("videoStreamIndex", 0)
    width, height = fitted(*display_size(expect))
    coded_width, coded_height = expect["width"], expect["height"]
    guessed = "709" if coded_width >= 1280 or coded_height > 576 else "170m"
    matrix = MATRIX.get(expect.get("colorSpace"), guessed)
    rng = RANGE.get(expect.get("colorRange"), "limited")
    ten_bit = "10" in frames["pixFmt"]
    yuv444 = "yuv444p10le" if ten_bit else "yuv444p"
    scale = f"scale={width}:{height}:flags=area+accurate_rnd+full_chroma_int,format={yuv444}"
    if expect.get("colorTransfer") in HDR_TRANSFERS:
        transfer = expect["colorTransfer"]
        colour = (f"zscale=matrixin={matrix}:rangein={rng}:transferin={transfer}:primariesin=2020"
                  f":transfer=linear:npl=100:agamma=0,format=gbrpf32le,zscale=primaries=709:agamma=0,"
                  f"tonemap=tonemap=hable:desat=0:peak=10,"
                  f"zscale=transfer=709:matrix=709:range=full:agamma=0,format=gbrp")
    else:
        colour = f"zscale=matrixin={matrix}:rangein={rng}:matrix={matrix}:range=full:agamma=0,format=gbrp"
    for frame in frames["frames"]:
        role, pts = frame["role"], frame["pts"]
        target = os.path.join(out, f"{name}.{role}.png")
        chain = (f"select=eq(pts\\,{pts}),{scale},{colour},format=rgb24,setsar=1,"
                 "setparams=color_primaries=unknown:color_trc=unknown:colorspace=unknown")
        subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                        "-sws_flags", "area+accurate_rnd+full_chroma_int",
                        "-copyts", "-i", os.path.join(here, frames["file"]), "-map", f"0:{stream}",
                        "-vf", chain, "-fps_mode", "passthrough", "-frames:v", "1",
                        "-c:v", "png", "-pred", "mixed", "-compression_level", "9",
                        "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
                        "-f", "image2", target], check=True)
        probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                "stream=width,height,pix_fmt", "-of", "csv=p=0", target],
                               check=True, capture_output=True, text=True).stdout.strip()
        if probe != f"{width},{height},rgb24":
            sys.exit(f"error: {target} is {probe}, expected {width}x{height} rgb24")
        if any(tag in chunk_types(target) for tag in (b"gAMA", b"cHRM", b"sRGB", b"iCCP")):
            sys.exit(f"error: {target} has a colour chunk; readers would convert its values")
        total += os.path.getsize(target)
        count += 1
    print(f"{name:26s} {width}x{height}  matrix {matrix}, {rng}"
          + (f", {expect['colorTransfer']} tone-mapped" if expect.get("colorTransfer") in HDR_TRANSFERS else ""))

print(f"{count} thumbnails, {total} bytes")
if total > 1_500_000:
    sys.exit("error: the thumbnails are over 1.5 MB")
PY_EOF
