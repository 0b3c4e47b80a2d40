#!/usr/bin/env bash
# What one thumbnail costs over HTTP: requests, round trips and bytes, against ftyp+moov, with each index policy.
# Starts nginx on a free loopback port serving the repository, runs the built `thumbs` (swift build first),
# prints a Markdown table. Usage: Benchmarks/index-cost.sh [files relative to the repository root...]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
THUMBS="$ROOT/.build/debug/thumbs"
[[ -x "$THUMBS" ]] || { echo "build first: swift build" >&2; exit 1; }
FILES=("$@")
if ((${#FILES[@]} == 0)); then
  FILES=(Fixtures/h264-faststart.mp4 Fixtures/h264-bframes.mp4 Benchmarks/.media/h264-1080p-60s-faststart.mp4
         Benchmarks/.media/h264-1080p-60s-moov-at-end.mp4 Benchmarks/.media/h264-10min-faststart.mp4
         Benchmarks/.media/h264-10min-moov-at-end.mp4)
fi
TMP="$(mktemp -d)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mkdir -p "$TMP/logs"
cat > "$TMP/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1; pid $TMP/nginx.pid; error_log $TMP/logs/error.log warn;
events { worker_connections 64; }
http { access_log off; client_body_temp_path $TMP/b; proxy_temp_path $TMP/p; fastcgi_temp_path $TMP/f;
       uwsgi_temp_path $TMP/u; scgi_temp_path $TMP/s; types { video/mp4 mp4; }
       server { listen 127.0.0.1:$PORT; root $ROOT; } }
CONF
nginx -p "$TMP" -c "$TMP/nginx.conf" & NGINX=$!
trap 'kill $NGINX 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
echo "| file | size | ftyp+moov | index | requests | round trips | bytes fetched | bytes / (ftyp+moov+keyframe) |"
echo "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |"
for file in "${FILES[@]}"; do
  [[ -f "$ROOT/$file" ]] || continue
  info="$("$THUMBS" info "$ROOT/$file" --json)"
  for policy in whole video; do
    stats="$("$THUMBS" thumbnail "http://127.0.0.1:$PORT/$file" --max-size 320 --index $policy -o "$TMP/t.png" --stats 2>&1 | tail -1)"
    python3 - "$file" "$policy" "$info" "$stats" "$(stat -c %s "$ROOT/$file")" <<'PY'
import json, sys
file, policy, info, stats, size = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
ftyp_moov = info["moovSize"] + (info["moovOffset"] if info["moovOffset"] < 1000 else 32)
keyframe = stats["perRequest"][-1]["bytes"]
bound = ftyp_moov + keyframe
print(f"| {file.split('/')[-1]} | {size:,} | {ftyp_moov:,} | {policy} | {stats['requests']} | {stats['roundTrips']} | {stats['bytes']:,} | {stats['bytes']/bound:.2f} |")
PY
  done
done
