#!/usr/bin/env python3
"""Range-efficiency harness: thumbs against ffmpeg, ffmpeg -skip_frame nokey, ffmpegthumbnailer and a full download.

Every tool fetches the same media from the same local server (server.py), which adds a round-trip delay per request
(and per new connection) and caps bandwidth, and counts requests, connections and body bytes itself, so every tool is
measured the same way. Writes Benchmarks/results/harness.md, harness.json and two PNG charts.

Usage: Benchmarks/harness/run.py --thumbs PATH [--quick] [--runs N] [--media NAME ...]
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
MEDIA_DIR = os.path.join(BENCH, ".media")
RESULTS = os.path.join(BENCH, "results")

# name -> (file, time in whole seconds, minimum sequential round trips for one keyframe thumbnail)
MEDIA = {
    "1080p H.264 faststart": ("h264-1080p-60s-faststart.mp4", 30, 2),
    "1080p H.264 moov-at-end": ("h264-1080p-60s-moov-at-end.mp4", 30, 3),
    "4K HEVC": ("hevc-4k-3s.mp4", 1, 2),
    "1080p HEVC": ("hevc-1080p-10s.mp4", 5, 2),
    "10 min 320x180 moov-at-end": ("h264-10min-moov-at-end.mp4", 300, 3),
}
DEFAULT_MEDIA = list(MEDIA)  # every medium: about 8 minutes on 2 cores
TOOLS = ["thumbs", "ffmpeg", "ffmpeg nokey", "ffmpegthumbnailer", "full download"]
FULL_SETTINGS = [(rtt, bw) for bw in (0, 20) for rtt in (0, 20, 50, 100)]
QUICK_SETTINGS = [(0, 0), (50, 0)]


class Server:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), MEDIA_DIR],
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            raise SystemExit("server did not start")
        self.port = int(line.split()[1])
        self.base = f"http://127.0.0.1:{self.port}"

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=30) as r:
            return json.loads(r.read())

    def settled_stats(self):
        """Counters once every response in flight has finished or failed (a client that quit mid-body)."""
        deadline = time.monotonic() + 5
        while True:
            s = self.get("/_stats")
            if s["active"] == 0 or time.monotonic() > deadline:
                return s
            time.sleep(0.01)

    def configure(self, rtt_ms, mbit):
        self.get(f"/_config?rtt_ms={rtt_ms}&bandwidth_mbit={mbit}")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=5)


def timed(cmd, timeout=300):
    start = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return (time.monotonic() - start) * 1000, p


def commands(tool, thumbs, src, t, out):
    hms = time.strftime("%H:%M:%S", time.gmtime(t))
    ff = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
    if tool == "thumbs":
        return [thumbs, "thumbnail", src, "--time", str(t), "--max-size", "320", "-o", out + ".png", "--stats"]
    if tool == "ffmpeg":
        return ff + ["-ss", str(t), "-i", src, "-frames:v", "1", "-vf", "scale=320:-2", out + ".png"]
    if tool == "ffmpeg nokey":
        return ff + ["-skip_frame", "nokey", "-ss", str(t), "-i", src, "-frames:v", "1", "-vf", "scale=320:-2",
                     out + ".png"]
    if tool == "ffmpegthumbnailer":
        return ["ffmpegthumbnailer", "-i", src, "-t", hms, "-s", "320", "-o", out + ".png"]
    if tool == "full download":
        if shutil.which("curl"):
            return ["curl", "-sS", "-o", os.devnull, src]
        return [sys.executable, "-c", "import shutil,sys,urllib.request;"
                "shutil.copyfileobj(urllib.request.urlopen(sys.argv[1]), open('/dev/null','wb'), 1<<20)", src]
    raise ValueError(tool)


def lower_bound(thumbs, server, name):
    """ftyp+moov+keyframe bytes, from `thumbs info --json` and the keyframe request of one thumbs run at RTT 0."""
    file, t, trips = MEDIA[name]
    info = json.loads(subprocess.run([thumbs, "info", os.path.join(MEDIA_DIR, file), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    # ftyp sits before moov in a faststart file; in a moov-at-end file the ftyp (and the mdat header) is 32 bytes.
    ftyp = info["moovOffset"] if info["moovOffset"] < 1000 else 32
    server.configure(0, 0)
    with tempfile.TemporaryDirectory() as tmp:
        _, p = timed(commands("thumbs", thumbs, f"{server.base}/{file}", t, os.path.join(tmp, "o")))
    stats = json.loads(p.stderr.strip().splitlines()[-1])
    keyframe = stats["perRequest"][-1]["bytes"]
    return {"ftyp": ftyp, "moov": info["moovSize"], "keyframe": keyframe,
            "bytes": ftyp + info["moovSize"] + keyframe, "roundTrips": trips, "fileSize": info["fileSize"]}


def run_matrix(args, thumbs, server, media_names, settings):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in media_names:
            file, t, _ = MEDIA[name]
            url = f"{server.base}/{file}"
            for rtt, bw in settings:
                server.configure(rtt, bw)
                for tool in TOOLS:
                    if tool == "ffmpegthumbnailer" and not shutil.which("ffmpegthumbnailer"):
                        continue
                    runs = args.runs
                    if tool == "full download":
                        if bw and rtt and not args.full_download_capped:
                            continue  # 62 MB at 20 Mbit/s is 25 s a run: capped, only at RTT 0 (RTT adds ~2 RTT)
                        runs = 1
                    samples = []
                    for i in range(runs):
                        server.get("/_reset")
                        wall, p = timed(commands(tool, thumbs, url, t, os.path.join(tmp, f"o{i}")))
                        s = server.settled_stats()
                        sample = {"wallMs": wall, "requests": s["requests"], "connections": s["connections"],
                                  "bytes": s["bodyBytes"], "ok": p.returncode == 0}
                        if tool == "thumbs" and p.returncode == 0:
                            st = json.loads(p.stderr.strip().splitlines()[-1])
                            sample["roundTrips"] = st.get("roundTrips")
                            sample["selfWallMs"] = st.get("wallMs")
                        if p.returncode != 0:
                            sample["error"] = p.stderr.strip()[-300:]
                        samples.append(sample)
                    med = lambda k: statistics.median(x[k] for x in samples)
                    row = {"medium": name, "rttMs": rtt, "bandwidthMbit": bw, "tool": tool, "runs": runs,
                           "requests": med("requests"), "connections": med("connections"), "bytes": med("bytes"),
                           "wallMs": med("wallMs"), "failures": sum(not x["ok"] for x in samples)}
                    if tool == "thumbs" and all("roundTrips" in x for x in samples):
                        row["roundTrips"] = med("roundTrips")
                    if row["failures"]:
                        row["error"] = next(x["error"] for x in samples if not x["ok"])
                    rows.append(row)
                    print(f"{name:28} rtt={rtt:3} bw={bw or 'unl':>3} {tool:18} req={row['requests']:>4} "
                          f"conn={row['connections']:>3} bytes={row['bytes']:>11,.0f} wall={row['wallMs']:8.1f} ms"
                          + (f"  FAILED {row['failures']}/{runs}" if row["failures"] else ""), flush=True)
    return rows


def local_file(thumbs, runs=5):
    """RTT 0, no server: one thumbnail of a local file, and each program's bare start-up."""
    file, t, _ = MEDIA["1080p H.264 faststart"]
    path = os.path.join(MEDIA_DIR, file)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        o = os.path.join(tmp, "o")
        cases = {
            "thumbs thumbnail FILE": [thumbs, "thumbnail", path, "--time", str(t), "--max-size", "320", "-o", o + ".png"],
            "ffmpeg -ss T -i FILE": commands("ffmpeg", thumbs, path, t, o),
            "ffmpeg -skip_frame nokey": commands("ffmpeg nokey", thumbs, path, t, o),
            "ffmpegthumbnailer": commands("ffmpegthumbnailer", thumbs, path, t, o),
            "thumbs --help (start-up)": [thumbs, "--help"],
            "ffmpeg -version (start-up)": ["ffmpeg", "-version"],
        }
        for label, cmd in cases.items():
            if not shutil.which(cmd[0]) and not os.path.exists(cmd[0]):
                continue
            timed(cmd)  # warm the page cache and the dynamic loader
            walls = [timed(cmd)[0] for _ in range(runs)]
            out[label] = {"medianMs": statistics.median(walls), "minMs": min(walls), "runs": runs}
            print(f"local  {label:28} median {out[label]['medianMs']:7.1f} ms  min {out[label]['minMs']:7.1f} ms",
                  flush=True)
    return out


def fmt_bytes(n):
    return f"{n:,.0f}"


def write_report(args, rows, bounds, local, settings, elapsed):
    os.makedirs(RESULTS, exist_ok=True)
    peer = {(r["medium"], r["rttMs"], r["bandwidthMbit"]): r["wallMs"] for r in rows if r["tool"] == "ffmpeg"}
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = "Benchmarks/run-harness.sh" + (" --quick" if args.quick else "") + \
          (f" --runs {args.runs}" if args.runs != 3 else "") + \
          ("".join(f' --media "{m}"' for m in args.media) if args.media else "")
    ver = subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True).stdout.splitlines()[0]
    L = [f"# Range-efficiency harness", "",
         f"Measured {now} on {platform.node() or 'this machine'}: {os.cpu_count()} cores, {platform.system()} "
         f"{platform.release()}, Python {platform.python_version()}, {ver}.",
         f"Command: `{cmd}` ({elapsed / 60:.1f} min). Median of {args.runs} runs per cell (full download: 1 run).", "",
         "Server: `Benchmarks/harness/server.py` on 127.0.0.1; it sleeps one RTT before each response head and one more",
         "when a connection makes its first request (the TCP handshake), paces body writes to the bandwidth cap, and",
         "counts requests, connections and body bytes written. Bytes are what the server wrote into the socket, so a",
         "client that closes early is charged for what was already in flight (socket buffers), as on a real link.",
         "", "## Lower bounds", "",
         "| medium | file size | ftyp | moov | keyframe | lower bound (ftyp+moov+keyframe) | min round trips |",
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, b in bounds.items():
        L.append(f"| {name} | {fmt_bytes(b['fileSize'])} | {b['ftyp']} | {fmt_bytes(b['moov'])} | "
                 f"{fmt_bytes(b['keyframe'])} | {fmt_bytes(b['bytes'])} | {b['roundTrips']} |")
    L += ["", "## Headline: 50 ms RTT, unlimited bandwidth" if (50, 0) in settings else "## Headline", ""]
    L += headline(rows, bounds, peer, settings)
    L += ["", "## Every cell", "",
          "| medium | RTT ms | bandwidth | tool | requests | connections | round trips | bytes | wall ms | bytes / bound | wall / ffmpeg |",
          "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        b = bounds[r["medium"]]["bytes"]
        p = peer.get((r["medium"], r["rttMs"], r["bandwidthMbit"]))
        fail = f" ({r['failures']} failed)" if r["failures"] else ""
        L.append(f"| {r['medium']} | {r['rttMs']} | {str(r['bandwidthMbit']) + ' Mbit/s' if r['bandwidthMbit'] else 'unlimited'} "
                 f"| {r['tool']}{fail} | {r['requests']:g} | {r['connections']:g} | {r.get('roundTrips', '')} "
                 f"| {fmt_bytes(r['bytes'])} | {r['wallMs']:.0f} | {r['bytes'] / b:.2f} | "
                 f"{(r['wallMs'] / p) if p else float('nan'):.2f} |")
    L += ["", "## Local file (RTT 0, no server), and process start-up", "",
          f"Median of {next(iter(local.values()))['runs'] if local else 5} runs after one warm-up; "
          "1080p H.264 faststart, t = 30 s, 320 px PNG.", "",
          "| command | median ms | min ms |", "| --- | ---: | ---: |"]
    for label, v in local.items():
        L.append(f"| {label} | {v['medianMs']:.1f} | {v['minMs']:.1f} |")
    failures = [r for r in rows if r["failures"]]
    if failures:
        L += ["", "## Failures", ""]
        for r in failures:
            L.append(f"- {r['medium']}, RTT {r['rttMs']}, bw {r['bandwidthMbit']}, {r['tool']}: "
                     f"{r['failures']}/{r['runs']}: `{r.get('error', '')[:200]}`")
    L += ["", "Charts: `bytes-per-tool.png`, `wall-vs-rtt.png`. Raw figures: `harness.json`.", ""]
    with open(os.path.join(RESULTS, "harness.md"), "w") as f:
        f.write("\n".join(L))
    with open(os.path.join(RESULTS, "harness.json"), "w") as f:
        json.dump({"date": now, "cores": os.cpu_count(), "command": cmd, "bounds": bounds, "rows": rows,
                   "local": local}, f, indent=1)
    return "\n".join(L)


def headline(rows, bounds, peer, settings):
    rtt, bw = (50, 0) if (50, 0) in settings else settings[-1]
    out = [f"RTT {rtt} ms, bandwidth {'unlimited' if not bw else f'{bw} Mbit/s'}.", "",
           "| medium | tool | requests | connections | round trips | bytes | bytes / bound | wall ms | wall / ffmpeg |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if r["rttMs"] != rtt or r["bandwidthMbit"] != bw:
            continue
        b = bounds[r["medium"]]["bytes"]
        p = peer.get((r["medium"], rtt, bw))
        out.append(f"| {r['medium']} | {r['tool']} | {r['requests']:g} | {r['connections']:g} | "
                   f"{r.get('roundTrips', '')} | {fmt_bytes(r['bytes'])} | {r['bytes'] / b:.2f} | "
                   f"{r['wallMs']:.0f} | {(r['wallMs'] / p) if p else float('nan'):.2f} |")
    return out


def charts(rows, bounds):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no charts", file=sys.stderr)
        return
    media = list(bounds)
    tools = [t for t in TOOLS if any(r["tool"] == t for r in rows)]
    # Bytes per tool at RTT 0, unlimited bandwidth, per medium, with the lower bound; log scale.
    fig, ax = plt.subplots(figsize=(10, 5))
    width = 0.8 / (len(tools) + 1)
    for i, tool in enumerate(["lower bound"] + tools):
        ys = []
        for m in media:
            if tool == "lower bound":
                ys.append(bounds[m]["bytes"])
            else:
                v = [r["bytes"] for r in rows if r["medium"] == m and r["tool"] == tool and r["rttMs"] == 0
                     and r["bandwidthMbit"] == 0]
                ys.append(v[0] if v else 0)
        ax.bar([j + i * width for j in range(len(media))], ys, width, label=tool)
    ax.set_yscale("log")
    ax.set_xticks([j + width * len(tools) / 2 for j in range(len(media))])
    ax.set_xticklabels(media, fontsize=8)
    ax.set_ylabel("body bytes sent by the server (log)")
    ax.set_title("Bytes for one 320 px thumbnail (RTT 0, unlimited bandwidth)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(RESULTS, "bytes-per-tool.png"), dpi=110)
    plt.close(fig)
    # Wall time against RTT for the first medium, solid unlimited, dashed 20 Mbit/s.
    m = media[0]
    fig, ax = plt.subplots(figsize=(8, 5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, tool in enumerate(tools):
        for bw, style in ((0, "-"), (20, "--")):
            pts = sorted((r["rttMs"], r["wallMs"]) for r in rows
                         if r["medium"] == m and r["tool"] == tool and r["bandwidthMbit"] == bw)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", color=colors[i % len(colors)],
                        label=f"{tool} ({'unlimited' if not bw else f'{bw} Mbit/s'})")
    ax.set_yscale("log")
    ax.set_xlabel("round-trip time (ms)")
    ax.set_ylabel("wall time, median (ms, log)")
    ax.set_title(f"One thumbnail of {m}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(RESULTS, "wall-vs-rtt.png"), dpi=110)
    plt.close(fig)


def main():
    global RESULTS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--thumbs", default=os.path.join(ROOT, ".build", "release", "thumbs"))
    ap.add_argument("--quick", action="store_true", help="RTT 0 and 50 ms, unlimited bandwidth only")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--media", nargs="*", help=f"names from: {', '.join(MEDIA)}; 'all' for every one")
    ap.add_argument("--results", default=None, help="folder for harness.md, harness.json and the charts")
    ap.add_argument("--full-download-capped", action="store_true", help="also time the full download at 20 Mbit/s")
    args = ap.parse_args()
    if args.results:
        RESULTS = os.path.abspath(args.results)
    thumbs = os.path.abspath(args.thumbs)
    if not os.access(thumbs, os.X_OK):
        raise SystemExit(f"no thumbs binary at {thumbs}: swift build -c release --product thumbs")
    media_names = list(MEDIA) if args.media == ["all"] else (args.media or DEFAULT_MEDIA)
    for n in media_names:
        if not os.path.exists(os.path.join(MEDIA_DIR, MEDIA[n][0])):
            raise SystemExit(f"missing {MEDIA[n][0]}: run Benchmarks/media/make-media.sh")
    settings = QUICK_SETTINGS if args.quick else FULL_SETTINGS
    started = time.monotonic()
    server = Server()
    try:
        bounds = {n: lower_bound(thumbs, server, n) for n in media_names}
        rows = run_matrix(args, thumbs, server, media_names, settings)
    finally:
        server.stop()
    local = local_file(thumbs)
    report = write_report(args, rows, bounds, local, settings, time.monotonic() - started)
    charts(rows, bounds)
    print()
    print(report)


if __name__ == "__main__":
    main()
