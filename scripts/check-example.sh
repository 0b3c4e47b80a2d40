#!/usr/bin/env bash
# Builds the README's example (Examples/Thumbnail: a package of its own that depends on this one by path and on the
# Thumbs product alone, so it builds no networking) and runs it as a user would: on a bundled movie stored sideways,
# which must give an upright PNG fitted inside 320x320 (ffprobe's size and rotation are the oracle), and on a text
# file, which must be reported through MP4Error.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
swift build --package-path Examples/Thumbnail
example="$(swift build --package-path Examples/Thumbnail --show-bin-path)/ThumbnailExample"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$example" "$root/Fixtures/rotate-90.mp4"
python3 - "$root/Fixtures/rotate-90.expect.json" thumb.png <<'PY'
import json, struct, sys
expect = json.load(open(sys.argv[1]))
png = open(sys.argv[2], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "thumb.png is not a PNG"
width, height = struct.unpack(">II", png[16:24])
w, h = expect["width"], expect["height"]
if abs(expect.get("rotation") or 0) == 90:
    w, h = h, w
scale = min(1.0, 320 / max(w, h))
wanted = (round(w * scale), round(h * scale))
assert (width, height) == wanted, f"thumb.png is {width}x{height}, expected {wanted[0]}x{wanted[1]}"
print(f"check-example: upright {width}x{height} PNG, as ffprobe's size and rotation say")
PY
printf 'not a movie\n%.0s' $(seq 300) > notes.mp4
output="$("$example" notes.mp4)"
case "$output" in
    "not a movie we can read: "*) echo "check-example: a text file is reported as MP4Error: $output" ;;
    *) echo "check-example: unexpected output for a text file: $output" >&2; exit 1 ;;
esac
