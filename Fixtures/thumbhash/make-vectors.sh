#!/usr/bin/env bash
# Writes the ThumbHash test vectors (Tests/ThumbsTests/ThumbHashTests.swift) with the reference implementation,
# Evan Wallace's js/thumbhash.js (github.com/evanw/thumbhash, MIT), run by node; nothing here uses our code.
#
#   usage: Fixtures/thumbhash/make-vectors.sh PATH-TO-A-THUMBHASH-CHECKOUT   (needs ffmpeg and node)
#
# Inputs (Fixtures/thumbhash/<name>.rgba, straight RGBA, 8 bits, rows top to bottom; sizes in vectors.json):
#   - four of the fixtures' reference thumbnails (Fixtures/thumbnails), scaled by ffmpeg to fit 100x100 as the
#     reference's examples do before encoding: landscape, portrait, anamorphic and a tone-mapped HDR picture;
#   - synthetic images with alpha (gradients, a transparent hole, all transparent), one pixel, a 3x100 strip:
#     written by the node script below from formulas, so they are the same bytes on every run.
# vectors.json holds, for each input, the reference's hash (base64) and its decoding of that hash (its
# thumbHashToRGBA: width, height and the RGBA bytes as base64).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REFERENCE="${1:?usage: $0 PATH-TO-A-THUMBHASH-CHECKOUT}"
[ -f "$REFERENCE/js/thumbhash.js" ] || { echo "error: no js/thumbhash.js in $REFERENCE" >&2; exit 1; }
for tool in ffmpeg node; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found" >&2; exit 1; }
done

WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
THUMBNAILS="$HERE/../thumbnails"
for pair in "landscape:h264-faststart.frameAtMid" "portrait:rotate-90.firstFrame" \
            "anamorphic:pasp-anamorphic.frameAtMid" "hdr-pq:hevc-pq.frameAtMid"; do
  name="${pair%%:*}"; source="${pair#*:}"
  ffmpeg -v error -y -i "$THUMBNAILS/$source.png" \
    -vf "scale=w=100:h=100:force_original_aspect_ratio=decrease:flags=area,format=rgba" "$WORK/$name.png"
  ffmpeg -v error -y -i "$WORK/$name.png" -f rawvideo -pix_fmt rgba "$HERE/$name.rgba"
  ffprobe -v error -show_entries stream=width,height -of json "$WORK/$name.png" \
    | node -e 'const s = JSON.parse(require("fs").readFileSync(0)).streams[0];
               console.log(JSON.stringify({ width: s.width, height: s.height }))' > "$WORK/$name.size.json"
done

cp "$REFERENCE/js/thumbhash.js" "$WORK/thumbhash.mjs"
cat > "$WORK/vectors.mjs" <<'JS_EOF'
import * as ThumbHash from './thumbhash.mjs'
import { readFileSync, writeFileSync } from 'node:fs'

const [here, work] = process.argv.slice(2)
const vectors = []
const add = (name, w, h, rgba) => {
  const hash = ThumbHash.rgbaToThumbHash(w, h, rgba)
  const decoded = ThumbHash.thumbHashToRGBA(hash)
  vectors.push({
    name, width: w, height: h,
    hash: Buffer.from(hash).toString('base64'),
    decoded: { width: decoded.w, height: decoded.h, rgba: Buffer.from(decoded.rgba).toString('base64') },
  })
}

// The fixtures' thumbnails, as ffmpeg scaled them (their sizes from ffprobe).
for (const name of ['landscape', 'portrait', 'anamorphic', 'hdr-pq']) {
  const rgba = readFileSync(`${here}/${name}.rgba`)
  const sizes = JSON.parse(readFileSync(`${work}/${name}.size.json`, 'utf8'))
  if (rgba.length !== sizes.width * sizes.height * 4) throw new Error(`${name}: size`)
  add(name, sizes.width, sizes.height, rgba)
}

// Synthetic images, written out so that the Swift tests read the same bytes.
const synthetic = (name, w, h, pixel) => {
  const rgba = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      rgba.set(pixel(x, y), (y * w + x) * 4)
  writeFileSync(`${here}/${name}.rgba`, rgba)
  add(name, w, h, rgba)
}
synthetic('alpha-gradient', 100, 100, (x, y) => [x * 2.55, y * 2.55, 128, (x + y) * 1.275])
synthetic('alpha-hole', 64, 40, (x, y) => {
  const inside = (x - 32) ** 2 + (y - 20) ** 2 < 144
  return [200, (x * 4) & 255, (y * 6) & 255, inside ? 0 : 255]
})
synthetic('all-transparent', 20, 30, () => [10, 20, 30, 0])
synthetic('one-pixel', 1, 1, () => [250, 128, 3, 255])
synthetic('strip', 3, 100, (x, y) => [(y * 7) & 255, x * 100, 255 - y * 2, 255])
synthetic('stripes', 99, 17, (x) => (x & 1) ? [255, 255, 255, 255] : [0, 0, 0, 255])

writeFileSync(`${here}/vectors.json`, JSON.stringify(vectors, null, 1) + '\n')
console.log(`${vectors.length} vectors`)
JS_EOF
node "$WORK/vectors.mjs" "$HERE" "$WORK"
