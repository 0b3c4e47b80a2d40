#!/usr/bin/env bash
# Builds the DocC documentation of every library module (swift-docc-plugin), failing on any warning: a broken symbol
# link, an undocumented parameter. Output: .build/documentation/<Module> (or the directory given as $1).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/documentation}"
mkdir -p "$out"
for module in ByteSources MP4Box StreamManifests TransportStream Matroska RangeFetch FrameDecode Thumbs Storyboards ThumbsBatch ThumbsServer; do
    swift package --allow-writing-to-directory "$out" generate-documentation --target "$module" \
        --output-path "$out/$module" --warnings-as-errors
done
