#!/usr/bin/env python3
"""Memory of `thumbs serve` under a burst of distinct cold requests sent at once (Benchmarks/README.md, "Memory under a burst").

    Benchmarks/service/burst.py THUMBS MEDIA_ROOT MOVIE COUNT KIND [serve options ...]

KIND is `thumbnail` (a keyframe thumbnail of its own size and time each), `exact` (an exact frame each) or
`storyboard` (a storyboard of its own interval and width each). Starts `THUMBS serve --media-root MEDIA_ROOT` with
the options given, sends COUNT requests at once (one curl each), and prints the answers' statuses, the process's
peak RSS (VmHWM) and its RSS right after and 10 s after the burst, in MiB, from /proc/<pid>/status.
"""
import socket
import subprocess
import sys
import threading
import time
import urllib.request


def status(pid, field):
    with open(f"/proc/{pid}/status") as lines:
        for line in lines:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024
    raise KeyError(field)


def duration(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                         capture_output=True, text=True, check=True).stdout
    return float(out)


def main():
    thumbs, root, movie, count, kind = sys.argv[1:6]
    count = int(count)
    options = sys.argv[6:]
    length = duration(f"{root}/{movie}")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    server = subprocess.Popen([thumbs, "serve", "--port", str(port), "--media-root", root] + options,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz")
                break
            except OSError:
                time.sleep(0.1)
        idle = status(server.pid, "VmRSS")

        def path(index):
            at = (index * 0.37 * length / 59) % length
            if kind == "thumbnail":
                return f"/thumbnail.jpg?path={movie}&width={200 + index}&time={at:.3f}"
            if kind == "exact":
                return f"/thumbnail.jpg?path={movie}&width={200 + index}&time={at:.3f}&exact=1"
            return f"/storyboard.vtt?path={movie}&interval={2 + index % 5}&width={100 + index}"

        statuses = {}
        lock = threading.Lock()

        def get(index):
            out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-m", "600",
                                  f"http://127.0.0.1:{port}{path(index)}"], capture_output=True, text=True).stdout
            with lock:
                statuses[out] = statuses.get(out, 0) + 1

        started = time.time()
        threads = [threading.Thread(target=get, args=(index,)) for index in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.time() - started
        peak, after = status(server.pid, "VmHWM"), status(server.pid, "VmRSS")
        time.sleep(10)
        settled = status(server.pid, "VmRSS")
        answers = ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items()))
        print(f"{count} {kind} of {movie}: answers {{{answers}}} in {seconds:.1f} s; RSS idle {idle} MiB, "
              f"peak {peak} MiB, after {after} MiB, 10 s after {settled} MiB")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
