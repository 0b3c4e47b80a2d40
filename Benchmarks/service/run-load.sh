#!/usr/bin/env bash
# Load figures of `thumbs serve` (Benchmarks/README.md, "Serving under load"), with wrk on this machine: nginx's cache in front
# of two replicas (deploy/nginx.conf as shipped, ports and cache folder substituted), a replica alone with a warm
# cache, distinct cold 1080p thumbnails with a warm index, peak and settled RSS after bursts, and a soak at a steady
# rate.
#
#   Benchmarks/service/run-load.sh [soak seconds, default 600]
#
# Everything runs on loopback: origin nginx, replicas (release build), front nginx and wrk share the cores.
# Output: Benchmarks/results/service-load.md (and the raw wrk output beside it in .work/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
soak="${1:-600}"
work="$here/.work"
rm -rf "$work" && mkdir -p "$work/origin" "$work/front/logs" "$work/front/cache"
out="$root/Benchmarks/results/service-load.md"
movie_file="h264-1080p-60s-faststart.mp4"
[ -f "$root/Benchmarks/.media/$movie_file" ] || "$root/Benchmarks/media/make-media.sh"
command -v wrk >/dev/null || { echo "run-load: wrk is not installed (apt-get install wrk)" >&2; exit 1; }

(cd "$root" && swift build -c release --product thumbs >&2)
thumbs="$root/.build/release/thumbs"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
origin_port=$(free_port); r1=$(free_port); r2=$(free_port); front_port=$(free_port)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

cat > "$work/origin/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1; pid $work/origin/nginx.pid; error_log $work/origin/error.log warn;
events { worker_connections 1024; }
http { access_log off; types { video/mp4 mp4; }
  client_body_temp_path $work/origin/body; proxy_temp_path $work/origin/proxy; fastcgi_temp_path $work/origin/fcgi;
  uwsgi_temp_path $work/origin/uwsgi; scgi_temp_path $work/origin/scgi;
  server { listen 127.0.0.1:$origin_port; root $root/Benchmarks/.media; } }
CONF
nginx -p "$work/origin" -c "$work/origin/nginx.conf" & pids+=($!)

for port in $r1 $r2; do
  "$thumbs" serve --port "$port" --allow-origin "http://127.0.0.1:$origin_port/" --max-queue 256 \
    --cache-size-mb 64 > "$work/replica-$port.log" 2>&1 & pids+=($!)
done
replica_pids=("${pids[@]:1:2}")

sed -e "s/server 127.0.0.1:8081 /server 127.0.0.1:$r1 /" -e "s/server 127.0.0.1:8082 /server 127.0.0.1:$r2 /" \
    -e "s/listen 8080;/listen 127.0.0.1:$front_port;/" -e "s#/var/cache/nginx/thumbs#$work/front/cache#" \
    "$root/deploy/nginx.conf" > "$work/front/thumbs.conf"
cat > "$work/front/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1; pid $work/front/nginx.pid; error_log $work/front/logs/error.log warn;
events { worker_connections 1024; }
http { access_log off;
  client_body_temp_path $work/front/body; proxy_temp_path $work/front/proxy; fastcgi_temp_path $work/front/fcgi;
  uwsgi_temp_path $work/front/uwsgi; scgi_temp_path $work/front/scgi;
  include $work/front/thumbs.conf; }
CONF
nginx -p "$work/front" -c "$work/front/nginx.conf" & pids+=($!)

for port in $r1 $r2 $front_port; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
done

movie=$(python3 -c "import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1], safe=''))" "http://127.0.0.1:$origin_port/$movie_file")
path="/thumbnail.jpg?url=$movie&width=320&time=10"
curl -sf -o /dev/null "http://127.0.0.1:$front_port$path"
curl -sf -o /dev/null "http://127.0.0.1:$r1$path"
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$root/Benchmarks/.media/$movie_file")

run_wrk() {  # name, then wrk arguments
  local name="$1"; shift
  wrk --latency "$@" > "$work/$name.txt" 2>&1
  cat "$work/$name.txt" >&2
}
field() {  # file, pattern: the value after a line's label
  awk -v p="$2" '$1 == p { print $2; exit }' "$1"
}
errors() {  # file: non-2xx/3xx responses plus socket errors
  local non; non=$(awk '/Non-2xx or 3xx responses/ { print $5 }' "$1"); non=${non:-0}
  local sock; sock=$(awk -F'[ ,]+' '/Socket errors/ { print $4 + $6 + $8 + $10 }' "$1"); sock=${sock:-0}
  echo $((non + sock))
}
rss_kib() { awk '/VmHWM/ { print $2 }' "/proc/$1/status"; }
current_kib() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }

run_wrk cached-nginx -t2 -c32 -d20s "http://127.0.0.1:$front_port$path"
run_wrk cached-replica -t2 -c32 -d20s "http://127.0.0.1:$r1$path"
MOVIE="$movie" DURATION="$duration" MODE=cold run_wrk distinct-cold -t2 -c4 -d30s -s "$here/requests.lua" "http://127.0.0.1:$r1"

# Bursts: a replica of its own per burst, every request sent at once (Benchmarks/service/burst.py).
: > "$work/bursts.txt"
for burst in "150 thumbnail" "150 exact" "32 storyboard"; do
  # shellcheck disable=SC2086
  python3 "$here/burst.py" "$thumbs" "$root/Benchmarks/.media" "$movie_file" $burst --max-decodes 2 --max-queue 200 \
    --deadline 300 | tee -a "$work/bursts.txt" >&2
done

# Soak: one replica, a steady rate (16 connections, one request each 40 ms: about 400 a second at most; the
# replica's answers set the pace when slower), RSS sampled every 30 s.
for w in $(seq 200 249); do curl -sf -o /dev/null "http://127.0.0.1:$r2/thumbnail.jpg?url=$movie&width=$w&time=30"; done
: > "$work/soak-rss.txt"
( for _ in $(seq $((soak / 30))); do sleep 30; echo "$(date +%s) $(current_kib "${replica_pids[1]}")" >> "$work/soak-rss.txt"; done ) &
sampler=$!
MOVIE="$movie" DURATION="$duration" MODE=soak DELAY=40 run_wrk soak -t2 -c16 -d"${soak}s" -s "$here/requests.lua" "http://127.0.0.1:$r2"
wait $sampler || true

{
  echo "# thumbs serve under load"
  echo
  echo "Run $(date -u +'%Y-%m-%d %H:%M UTC') on $(nproc) cores: \`Benchmarks/service/run-load.sh $soak\`. Origin nginx, two replicas"
  echo "(release build), front nginx (deploy/nginx.conf) and wrk on one machine over loopback. Movie: $movie_file"
  echo "(1080p H.264, 60 s, a keyframe every 2 s), thumbnails 320 px wide JPEG."
  echo
  echo "| what | wrk | requests/s | p50 | p99 | errors |"
  echo "| --- | --- | ---: | ---: | ---: | ---: |"
  for row in "cached-nginx|cached thumbnail through nginx (cache HIT)|-t2 -c32 -d20s" \
             "cached-replica|cached thumbnail, one replica alone (its memory cache)|-t2 -c32 -d20s" \
             "distinct-cold|distinct cold thumbnails (a new time each), warm index, one replica|-t2 -c4 -d30s"; do
    IFS='|' read -r name what args <<< "$row"
    f="$work/$name.txt"
    echo "| $what | \`$args\` | $(field "$f" Requests/sec:) | $(awk '$1 == "50%" { print $2 }' "$f") | $(awk '$1 == "99%" { print $2 }' "$f") | $(errors "$f") |"
  done
  echo
  echo "Bursts of distinct cold requests sent at once to a replica of its own (\`--max-decodes 2 --max-queue 200\`):"
  echo
  sed 's/^/- /' "$work/bursts.txt"
  echo
  echo "Peak RSS (VmHWM): replica 1 $(( $(rss_kib "${replica_pids[0]}") / 1024 )) MiB, replica 2 (after the soak) $(( $(rss_kib "${replica_pids[1]}") / 1024 )) MiB."
  echo
  f="$work/soak.txt"
  echo "Soak: ${soak} s against replica 2, 16 connections each sending a request every 40 ms (one in ten a cold"
  echo "picture, the rest 50 warm ones): $(awk '/requests in/ { print $1 }' "$f") requests, $(field "$f" Requests/sec:) a second,"
  echo "p50 $(awk '$1 == "50%" { print $2 }' "$f"), p99 $(awk '$1 == "99%" { print $2 }' "$f"), errors $(errors "$f")."
  echo "RSS every 30 s (MiB): $(awk '{ printf "%s%d", (NR > 1 ? ", " : ""), $2 / 1024 }' "$work/soak-rss.txt")."
} > "$out"
cat "$out"
