#!/usr/bin/env python3
"""Range-efficiency harness: thumbs against ffmpeg, ffmpeg -skip_frame nokey, ffmpegthumbnailer and a full download.

Every tool fetches the same media from the same local server (server.py), which adds a round-trip delay per request
(and per new connection) and caps bandwidth, and counts requests, connections and body bytes itself, so every tool is
measured the same way. Writes Benchmarks/results/harness.md, harness.json and two PNG charts.

Usage: Benchmarks/harness/run.py --thumbs PATH [--quick] [--runs N] [--media NAME ...]
"""
import argparse
import contextlib
import http.client
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
MEDIA_DIR = os.path.join(BENCH, ".media")
RESULTS = os.path.join(BENCH, "results")

# name -> (file, time in whole seconds, minimum sequential round trips for one keyframe thumbnail): 2 for a faststart
# file and for moov at the end (the head and the tail in one request), 3 for a fragmented one (init and sidx, the moof
# that holds the time, the keyframe).
MEDIA = {
    "1080p H.264 faststart": ("h264-1080p-60s-faststart.mp4", 30, 2),
    "1080p H.264 moov-at-end": ("h264-1080p-60s-moov-at-end.mp4", 30, 2),
    "1080p H.264 fragmented": ("h264-1080p-60s-fragmented.mp4", 30, 3),
    "4K H.264": ("h264-4k-3s.mp4", 1, 2),
    "4K HEVC": ("hevc-4k-3s.mp4", 1, 2),
    "1080p HEVC": ("hevc-1080p-10s.mp4", 5, 2),
    "10 min 320x180 moov-at-end": ("h264-10min-moov-at-end.mp4", 300, 2),
}
DEFAULT_MEDIA = list(MEDIA)
TOOLS = ["thumbs", "ffmpeg", "ffmpeg nokey", "ffmpegthumbnailer", "full download"]
FULL_SETTINGS = [(rtt, bw) for bw in (0, 50) for rtt in (0, 20, 50, 100)]
QUICK_SETTINGS = [(0, 0), (50, 0), (50, 50)]
HEADLINE = (50, 50)


class Server:
    def __init__(self, root=MEDIA_DIR):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), root],
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


def arguments(doc, runs, network=False):
    """The options every harness takes: the thumbs binary, runs of each measurement, and (`network`) the loopback
    server's round-trip time and bandwidth."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--thumbs", required=True)
    ap.add_argument("--runs", type=int, default=runs)
    if network:
        ap.add_argument("--rtt-ms", type=float, default=50)
        ap.add_argument("--mbit", type=float, default=50)
    return ap


ORIGIN_KINDS = ["multipart", "whole", "refuse"]


@contextlib.contextmanager
def served():
    """A server over the media folder and a scratch folder, for the length of a `with`; the server is stopped after."""
    server = Server()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            yield server, tmp
    finally:
        server.stop()


def origin_kinds(server, args):
    """Each kind of origin server.py plays (what it answers to several ranges: `multipart`, `whole`, `refuse`), the
    server set to it at `args`' RTT and bandwidth, with one RTT for each new connection."""
    for kind in ORIGIN_KINDS:
        server.get(f"/_config?rtt_ms={args.rtt_ms}&bandwidth_mbit={args.mbit}&connect_rtt=1&multi_ranges={kind}")
        yield kind


def timed(cmd, timeout=300):
    """Wall milliseconds, the finished process, and its peak RSS in KiB (wait4's rusage of this child alone)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    outputs = {}

    def drain(name, stream):
        outputs[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(n, s)) for n, s in (("out", proc.stdout), ("err", proc.stderr))]
    for r in readers:
        r.start()
    killer = threading.Timer(timeout, proc.kill)
    killer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    killer.cancel()
    for r in readers:
        r.join()
    wall = (time.monotonic() - start) * 1000
    proc.returncode = os.waitstatus_to_exitcode(status)
    done = subprocess.CompletedProcess(cmd, proc.returncode, outputs["out"].decode(errors="replace"),
                                       outputs["err"].decode(errors="replace"))
    return wall, done, usage.ru_maxrss


def measure_runs(server, cmd, runs):
    """Median of `runs` runs of `cmd`: the server's counts, wall ms, peak RSS, and thumbs' own --stats line if any."""
    samples = []
    for _ in range(runs):
        server.get("/_reset")
        wall, p, rss = timed(cmd)
        s = server.settled_stats()
        sample = {"wallMs": wall, "requests": s["requests"], "connections": s["connections"], "bytes": s["bodyBytes"],
                  "peakRssKiB": rss, "ok": p.returncode == 0, "log": s["requestLog"]}
        lines = p.stderr.strip().splitlines()
        if p.returncode == 0 and lines and lines[-1].startswith("{"):
            sample["stats"] = json.loads(lines[-1])
        if p.returncode != 0:
            sample["error"] = p.stderr.strip()[-300:]
        samples.append(sample)
    ok = [x for x in samples if x["ok"]] or samples
    med = lambda k: statistics.median(x[k] for x in ok)
    row = {"requests": med("requests"), "connections": med("connections"), "bytes": med("bytes"),
           "wallMs": med("wallMs"), "peakRssKiB": med("peakRssKiB"), "failures": sum(not x["ok"] for x in samples),
           "runs": runs, "log": ok[len(ok) // 2]["log"]}
    stats = [x["stats"] for x in ok if "stats" in x]
    if stats:
        row["roundTrips"] = statistics.median(s.get("roundTrips", 0) for s in stats)
        row["stats"] = stats[0]
        if "keyframeBytes" in stats[0]:
            row["keyframeBytes"] = stats[0]["keyframeBytes"]
    if row["failures"]:
        row["error"] = next(x["error"] for x in samples if not x["ok"])
    return row


def replay(server, path, log):
    """Milliseconds the server takes to answer `log`'s requests for `path` again, in their order on one new
    connection, from the connect to the last body byte (python's http.client, whose own cost is well under a
    millisecond a request): what the requests a tool chose cost on the wire and in the server, without the tool."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    start = time.monotonic()
    try:
        for entry in log:
            conn.request("GET", path, headers={"Range": entry["range"]} if entry.get("range") else {})
            conn.getresponse().read()
    finally:
        conn.close()
    return (time.monotonic() - start) * 1000


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


def top_level_boxes(path):
    """(type, offset, size) of every top-level box, read here (not by thumbs)."""
    boxes, size = [], os.path.getsize(path)
    with open(path, "rb") as f:
        pos = 0
        while pos + 8 <= size:
            f.seek(pos)
            head = f.read(16)
            n, kind = int.from_bytes(head[:4], "big"), head[4:8].decode("latin-1")
            if n == 1:
                n = int.from_bytes(head[8:16], "big")
            elif n == 0:
                n = size - pos
            if n < 8:
                break
            boxes.append((kind, pos, n))
            pos += n
    return boxes


def nearest_keyframe(path, t):
    """The video key packet whose presentation time is nearest `t` (ffprobe's packet list): (pos, size)."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "packet=pts_time,pos,size,flags", "-of", "json", path],
                         capture_output=True, text=True, check=True).stdout
    keys = [p for p in json.loads(out)["packets"] if "K" in p.get("flags", "") and p.get("pts_time") not in (None, "N/A")]
    best = min(keys, key=lambda p: (abs(float(p["pts_time"]) - t), float(p["pts_time"])))
    return int(best["pos"]), int(best["size"])


def lower_bound(name):
    """The bytes no thumbnail can do without, from the file's own boxes and ffprobe's packets: ftyp + moov + the
    keyframe nearest t, and for a fragmented file the sidx and the moof before the keyframe too."""
    file, t, trips = MEDIA[name]
    path = os.path.join(MEDIA_DIR, file)
    boxes = top_level_boxes(path)
    pos, size = nearest_keyframe(path, t)
    parts = {kind: n for kind, _, n in boxes if kind in ("ftyp", "moov", "sidx")}
    moofs = [(o, n) for kind, o, n in boxes if kind == "moof" and o < pos]
    if moofs:
        parts["moof"] = moofs[-1][1]
    parts["keyframe"] = size
    return {"parts": parts, "bytes": sum(parts.values()), "roundTrips": trips, "fileSize": os.path.getsize(path),
            "keyframeOffset": pos}


def network_bound_ms(bound, rtt, mbit):
    """Round trips (plus the connection's handshake, which the server charges one RTT) and the bytes at the cap."""
    transfer = bound["bytes"] * 8 / (mbit * 1e6) * 1000 if mbit else 0
    return (bound["roundTrips"] + 1) * rtt + transfer


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
                            continue  # 62 MB at 50 Mbit/s is 10 s a run: capped, only at RTT 0 (RTT adds ~2 RTT)
                        runs = 1
                    samples = []
                    for i in range(runs):
                        server.get("/_reset")
                        wall, p, rss = timed(commands(tool, thumbs, url, t, os.path.join(tmp, f"o{i}")))
                        s = server.settled_stats()
                        sample = {"wallMs": wall, "requests": s["requests"], "connections": s["connections"],
                                  "bytes": s["bodyBytes"], "ok": p.returncode == 0, "peakRssKiB": rss}
                        if tool == "thumbs" and p.returncode == 0:
                            st = json.loads(p.stderr.strip().splitlines()[-1])
                            sample["roundTrips"] = st.get("roundTrips")
                            sample["selfWallMs"] = st.get("wallMs")
                            sample["replayMs"] = replay(server, "/" + file, s["requestLog"])
                            server.settled_stats()  # the replay's last chunk and log line land before the next reset
                            sample["clientMs"] = wall - sample["replayMs"]
                        if p.returncode != 0:
                            sample["error"] = p.stderr.strip()[-300:]
                        samples.append(sample)
                    med = lambda k: statistics.median(x[k] for x in samples)
                    row = {"medium": name, "rttMs": rtt, "bandwidthMbit": bw, "tool": tool, "runs": runs,
                           "requests": med("requests"), "connections": med("connections"), "bytes": med("bytes"),
                           "wallMs": med("wallMs"), "peakRssKiB": med("peakRssKiB"),
                           "failures": sum(not x["ok"] for x in samples)}
                    if tool == "thumbs" and all("roundTrips" in x for x in samples):
                        row["roundTrips"] = med("roundTrips")
                        row["replayMs"] = med("replayMs")
                        row["clientMs"] = med("clientMs")
                    if row["failures"]:
                        row["error"] = next(x["error"] for x in samples if not x["ok"])
                    rows.append(row)
                    print(f"{name:28} rtt={rtt:3} bw={bw or 'unl':>3} {tool:18} req={row['requests']:>4} "
                          f"conn={row['connections']:>3} bytes={row['bytes']:>11,.0f} wall={row['wallMs']:8.1f} ms"
                          + (f"  FAILED {row['failures']}/{runs}" if row["failures"] else ""), flush=True)
    return rows


def local_files(thumbs, media_names, runs=5):
    """RTT 0, no server: one thumbnail of each medium's local file by each tool (median wall and peak RSS of `runs`
    after a warm-up), and each program's bare start-up."""
    out = {"media": {}, "startup": {}}
    with tempfile.TemporaryDirectory() as tmp:
        o = os.path.join(tmp, "o")

        def measure(cmd):
            timed(cmd)  # warm the page cache and the dynamic loader
            results = [timed(cmd) for _ in range(runs)]
            walls = [r[0] for r in results]
            return {"medianMs": statistics.median(walls), "minMs": min(walls), "runs": runs,
                    "peakRssKiB": statistics.median(r[2] for r in results), "ok": all(r[1].returncode == 0 for r in results)}

        for name in media_names:
            file, t, _ = MEDIA[name]
            path = os.path.join(MEDIA_DIR, file)
            out["media"][name] = {}
            for tool in ("thumbs", "ffmpeg", "ffmpeg nokey", "ffmpegthumbnailer"):
                cmd = commands(tool, thumbs, path, t, o)
                if tool == "thumbs":
                    cmd = cmd[:-1]  # no --stats
                if not shutil.which(cmd[0]) and not os.path.exists(cmd[0]):
                    continue
                out["media"][name][tool] = measure(cmd)
                v = out["media"][name][tool]
                print(f"local  {name:28} {tool:18} median {v['medianMs']:7.1f} ms  peak RSS {v['peakRssKiB'] / 1024:6.1f} MiB",
                      flush=True)
        for label, cmd in {"thumbs --help": [thumbs, "--help"], "ffmpeg -version": ["ffmpeg", "-version"]}.items():
            out["startup"][label] = measure(cmd)
    return out


def fmt_bytes(n):
    return f"{n:,.0f}"


def mib(kib):
    return f"{kib / 1024:.0f}" if kib else ""


def setting_label(rtt, bw):
    return f"RTT {rtt} ms, {'unlimited bandwidth' if not bw else f'{bw} Mbit/s'}"


def write_report(args, rows, bounds, local, settings, elapsed):
    os.makedirs(RESULTS, exist_ok=True)
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
         "when a connection makes its first request (the TCP handshake), paces body writes to the bandwidth cap, answers",
         "several ranges with `multipart/byteranges` as nginx does, and counts requests, connections and body bytes",
         "written. Bytes are what the server wrote into the socket, so a client that closes early is charged for what was",
         "already in flight (socket buffers), as on a real link. Peak RSS is each process's own (wait4).", "",
         "Lower bound: the bytes no thumbnail can do without, read from the file's boxes and ffprobe's packet list",
         "(ftyp + moov + the key packet nearest t; for a fragmented file also the sidx and the moof before it). Network",
         "bound: (minimum round trips + 1 for the connection) x RTT + lower bound / bandwidth.", "",
         "## Lower bounds", "",
         "| medium | file size | ftyp | moov | sidx | moof | keyframe | lower bound | min round trips |",
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, b in bounds.items():
        q = b["parts"]
        L.append(f"| {name} | {fmt_bytes(b['fileSize'])} | {q.get('ftyp', '')} | {fmt_bytes(q.get('moov', 0))} | "
                 f"{q.get('sidx', '')} | {q.get('moof', '')} | {fmt_bytes(q['keyframe'])} | {fmt_bytes(b['bytes'])} | "
                 f"{b['roundTrips']} |")
    head = HEADLINE if HEADLINE in settings else settings[-1]
    L += ["", f"## Headline: {setting_label(*head)}", ""]
    L += headline(rows, bounds, local, head)
    L += ["", "## Goals for thumbs at that setting", "",
          "Round trips at most the minimum, requests no more than the round trips, bytes at most 1.5x the lower bound,",
          "wall at most the network bound + the local-file wall + 25 ms, peak RSS at most ffmpegthumbnailer's.", "",
          "The time past the bound is split in two. The requests: thumbs' requests replayed in order on one new",
          "connection by the harness (python's http.client), connect to last byte, minus the network bound: what the",
          "bytes and round trips thumbs chose cost beyond the bound, plus the server's own time. Thumbs' own: its wall",
          "minus that replay minus its local-file wall: what the HTTP client and the process add (medians of the runs).", "",
          "| medium | round trips (min) | requests | bytes / bound | wall - (network bound + local) ms | of which the requests ms | of which thumbs' own ms | peak RSS MiB (ffmpegthumbnailer) | goals met |",
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    L += goals(rows, bounds, local, head)
    L += ["", "## Every cell", "",
          "| medium | RTT ms | bandwidth | tool | requests | connections | round trips | bytes | bytes / bound | wall ms | wall - network bound ms | peak RSS MiB |",
          "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        b = bounds[r["medium"]]
        fail = f" ({r['failures']} failed)" if r["failures"] else ""
        L.append(f"| {r['medium']} | {r['rttMs']} | {str(r['bandwidthMbit']) + ' Mbit/s' if r['bandwidthMbit'] else 'unlimited'} "
                 f"| {r['tool']}{fail} | {r['requests']:g} | {r['connections']:g} | {r.get('roundTrips', '')} "
                 f"| {fmt_bytes(r['bytes'])} | {r['bytes'] / b['bytes']:.2f} | {r['wallMs']:.0f} | "
                 f"{r['wallMs'] - network_bound_ms(b, r['rttMs'], r['bandwidthMbit']):.0f} | {mib(r.get('peakRssKiB'))} |")
    L += ["", "## Local files (no server), and process start-up", "",
          f"Median of {args.local_runs} runs after one warm-up, 320 px PNG at the medium's time.", "",
          "| medium | tool | median ms | min ms | peak RSS MiB |", "| --- | --- | ---: | ---: | ---: |"]
    for name, tools in local["media"].items():
        for tool, v in tools.items():
            L.append(f"| {name} | {tool}{'' if v['ok'] else ' (failed)'} | {v['medianMs']:.1f} | {v['minMs']:.1f} | {mib(v['peakRssKiB'])} |")
    for label, v in local["startup"].items():
        L.append(f"| start-up | {label} | {v['medianMs']:.1f} | {v['minMs']:.1f} | {mib(v['peakRssKiB'])} |")
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


def headline(rows, bounds, local, setting):
    rtt, bw = setting
    out = ["| medium | tool | requests | connections | round trips | bytes | bytes / bound | wall ms | wall - network bound ms | peak RSS MiB |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if (r["rttMs"], r["bandwidthMbit"]) != setting:
            continue
        b = bounds[r["medium"]]
        bound = network_bound_ms(b, rtt, bw)
        out.append(f"| {r['medium']} | {r['tool']} | {r['requests']:g} | {r['connections']:g} | "
                   f"{r.get('roundTrips', '')} | {fmt_bytes(r['bytes'])} | {r['bytes'] / b['bytes']:.2f} | "
                   f"{r['wallMs']:.0f} | {r['wallMs'] - bound:.0f} | {mib(r.get('peakRssKiB'))} |")
        if r["tool"] == "thumbs" and "thumbs" in local["media"].get(r["medium"], {}):
            v = local["media"][r["medium"]]["thumbs"]
            out.append(f"| {r['medium']} | thumbs, local file | | | | | | {v['medianMs']:.0f} | | {mib(v['peakRssKiB'])} |")
    return out


def goals(rows, bounds, local, setting):
    rtt, bw = setting
    out = []
    by = {(r["medium"], r["tool"]): r for r in rows if (r["rttMs"], r["bandwidthMbit"]) == setting}
    for name, b in bounds.items():
        r = by.get((name, "thumbs"))
        if not r:
            continue
        peer = by.get((name, "ffmpegthumbnailer"))
        lw = local["media"].get(name, {}).get("thumbs", {}).get("medianMs", 0)
        slack = r["wallMs"] - (network_bound_ms(b, rtt, bw) + lw)
        trips = r.get("roundTrips")
        met = {
            "round trips": trips is not None and trips <= b["roundTrips"],
            "requests": trips is not None and r["requests"] <= trips,
            "bytes": r["bytes"] / b["bytes"] <= 1.5,
            "wall": slack <= 25,
            "RSS": peer is None or (r.get("peakRssKiB") or 0) <= (peer.get("peakRssKiB") or 0),
        }
        missed = [k for k, v in met.items() if not v]
        requests_ms = f"{r['replayMs'] - network_bound_ms(b, rtt, bw):.0f}" if "replayMs" in r else ""
        own_ms = f"{r['clientMs'] - lw:.0f}" if "clientMs" in r else ""
        out.append(f"| {name} | {trips if trips is not None else '?'} ({b['roundTrips']}) | {r['requests']:g} | "
                   f"{r['bytes'] / b['bytes']:.2f} | {slack:.0f} | {requests_ms} | {own_ms} | {mib(r.get('peakRssKiB'))} "
                   f"({mib(peer.get('peakRssKiB')) if peer else '-'}) | {'all' if not missed else 'not: ' + ', '.join(missed)} |")
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
    # Wall time against RTT for the first medium, solid unlimited, dashed 50 Mbit/s.
    m = media[0]
    fig, ax = plt.subplots(figsize=(8, 5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, tool in enumerate(tools):
        for bw, style in ((0, "-"), (50, "--")):
            pts = sorted((r["rttMs"], r["wallMs"]) for r in rows
                         if r["medium"] == m and r["tool"] == tool and r["bandwidthMbit"] == bw)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", color=colors[i % len(colors)],
                        label=f"{tool} ({'unlimited' if not bw else f'{bw} Mbit/s'})")
    ax.set_yscale("log")
    ax.set_xlabel("round-trip time (ms)")
    ax.set_ylabel("wall time, median (ms, log)")
    ax.set_title(f"One thumbnail of {m} (solid: unlimited, dashed: 50 Mbit/s)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(RESULTS, "wall-vs-rtt.png"), dpi=110)
    plt.close(fig)


def main():
    global RESULTS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--thumbs", default=os.path.join(ROOT, ".build", "release", "thumbs"))
    ap.add_argument("--quick", action="store_true", help="RTT 0 and 50 ms unlimited, and 50 ms at 50 Mbit/s")
    ap.add_argument("--local-runs", type=int, default=5, help="runs of each local-file thumbnail")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--media", nargs="*", help=f"names from: {', '.join(MEDIA)}; 'all' for every one")
    ap.add_argument("--results", default=None, help="folder for harness.md, harness.json and the charts")
    ap.add_argument("--full-download-capped", action="store_true", help="also time the full download at 50 Mbit/s with an RTT")
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
        bounds = {n: lower_bound(n) for n in media_names}
        for n, b in bounds.items():
            print(f"bound  {n:28} {fmt_bytes(b['bytes']):>11} bytes {b['parts']}", flush=True)
        rows = run_matrix(args, thumbs, server, media_names, settings)
    finally:
        server.stop()
    local = local_files(thumbs, media_names, args.local_runs)
    report = write_report(args, rows, bounds, local, settings, time.monotonic() - started)
    charts(rows, bounds)
    print()
    print(report)


if __name__ == "__main__":
    main()
