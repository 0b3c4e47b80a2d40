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
#      fitted size: the width times the SAR to the nearest pixel (the tkhd
#      width ffmpeg writes; as Track.displaySize), fitted inside 160x160, the
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
# The geometry and the filter chain are in Fixtures/reference_pictures.py, shared with
# Fixtures/real-world/make-expectations.py.
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
sys.path.insert(0, here)
import reference_pictures as refs  # geometry and the filter chain, shared with real-world/make-expectations.py

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
    size = refs.fitted(*refs.display_size(expect["width"], expect["height"], expect.get("sampleAspectRatio"),
                                          expect.get("rotation")), box)
    matrix, rng = refs.colour_of(expect.get("colorSpace"), expect.get("colorRange"), expect["width"], expect["height"])
    chain = refs.filter_chain(size, "10" in frames["pixFmt"], matrix, rng, expect.get("colorTransfer"), "bt2020")
    for frame in frames["frames"]:
        role, pts = frame["role"], frame["pts"]
        target = os.path.join(out, f"{name}.{role}.png")
        subprocess.run(refs.ffmpeg_command(os.path.join(here, frames["file"]), stream, f"select=eq(pts\\,{pts})",
                                           chain, target), check=True)
        probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                "stream=width,height,pix_fmt", "-of", "csv=p=0", target],
                               check=True, capture_output=True, text=True).stdout.strip()
        if probe != f"{size[0]},{size[1]},rgb24":
            sys.exit(f"error: {target} is {probe}, expected {size[0]}x{size[1]} rgb24")
        if any(tag in chunk_types(target) for tag in (b"gAMA", b"cHRM", b"sRGB", b"iCCP")):
            sys.exit(f"error: {target} has a colour chunk; readers would convert its values")
        total += os.path.getsize(target)
        count += 1
    print(f"{name:26s} {size[0]}x{size[1]}  matrix {matrix}, {rng}"
          + (f", {expect['colorTransfer']} tone-mapped" if refs.is_hdr(expect.get("colorTransfer")) else ""))

print(f"{count} thumbnails, {total} bytes")
if total > 1_500_000:
    sys.exit("error: the thumbnails are over 1.5 MB")
PY_EOF
