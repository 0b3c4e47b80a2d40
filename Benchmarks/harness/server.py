#!/usr/bin/env python3
"""Benchmark HTTP/1.1 file server: Range, ETag, keep-alive, a round-trip delay and a bandwidth cap, server-side counters.

Standard library only. Serves one folder on 127.0.0.1 (a free port unless --port); prints "PORT <n>" on its first line.

Every counted request waits --rtt-ms before its response head is written (one simulated round trip per request;
the TCP handshake of a new connection is charged the same delay, see --connect-rtt), and its body is written in
chunks paced to --bandwidth-mbit (0 = unlimited). The pacing is per server (one shared token bucket), so parallel
connections share the cap, as they would share a link.

Control endpoints (not counted, never delayed):
  GET /_stats                      -> JSON {requests, connections, bodyBytes, requestLog: [...]}
  GET /_reset                      -> zero the counters
  GET /_config?rtt_ms=50&bandwidth_mbit=20&connect_rtt=1&multi_ranges=whole  -> change the settings without a restart

--multi-ranges says how a request for several ranges is answered: `multipart` (multipart/byteranges, as nginx),
`whole` (200 and the whole file, as Amazon S3, Google Cloud Storage, Cloudflare R2 and Azure Blob), `refuse` (416, as
Alibaba OSS). A single range is always answered with 206.
"""
import argparse
import email.utils
import json
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {"requests": 0, "connections": 0, "bodyBytes": 0, "active": 0, "log": []}
CONFIG = {"rtt_ms": 0.0, "bandwidth_mbit": 0.0, "connect_rtt": True, "multi_ranges": "multipart"}
MULTI_RANGES = ("multipart", "whole", "refuse")
CHUNK = 16 * 1024


class Pacer:
    """A token bucket shared by every connection: bytes may be written at bandwidth_mbit on average."""

    def __init__(self):
        self.lock = threading.Lock()
        self.next_free = 0.0

    def wait(self, nbytes):
        mbit = CONFIG["bandwidth_mbit"]
        if mbit <= 0:
            return
        seconds = nbytes * 8 / (mbit * 1e6)
        with self.lock:
            now = time.monotonic()
            start = max(now, self.next_free)
            self.next_free = start + seconds
            delay = self.next_free - now
        if delay > 0:
            time.sleep(delay)


PACER = Pacer()


def reset():
    with LOCK:
        STATE.update(requests=0, connections=0, bodyBytes=0, log=[])
    with PACER.lock:
        PACER.next_free = 0.0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ThumbsBench/1"
    root = "."

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        self.counted_connection = False
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def count_connection(self):
        # A connection is counted when its first counted request arrives, so control requests never count.
        if not self.counted_connection:
            self.counted_connection = True
            with LOCK:
                STATE["connections"] += 1
            if CONFIG["connect_rtt"] and CONFIG["rtt_ms"] > 0:
                time.sleep(CONFIG["rtt_ms"] / 1000)  # the TCP handshake's round trip

    def control(self, path, query):
        if path == "/_stats":
            with LOCK:
                body = json.dumps({"requests": STATE["requests"], "connections": STATE["connections"],
                                   "bodyBytes": STATE["bodyBytes"], "active": STATE["active"], "requestLog": STATE["log"],
                                   "config": CONFIG}).encode()
        elif path == "/_reset":
            reset()
            body = b'{"ok":true}'
        else:  # /_config
            q = urllib.parse.parse_qs(query)
            if "rtt_ms" in q:
                CONFIG["rtt_ms"] = float(q["rtt_ms"][0])
            if "bandwidth_mbit" in q:
                CONFIG["bandwidth_mbit"] = float(q["bandwidth_mbit"][0])
            if "connect_rtt" in q:
                CONFIG["connect_rtt"] = q["connect_rtt"][0] not in ("0", "false")
            if q.get("multi_ranges", [""])[0] in MULTI_RANGES:
                CONFIG["multi_ranges"] = q["multi_ranges"][0]
            body = json.dumps(CONFIG).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_HEAD(self):
        self.serve(head=True)

    def do_GET(self):
        self.serve(head=False)

    def serve(self, head):
        parsed = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(parsed.path)
        if path in ("/_stats", "/_reset", "/_config"):
            return self.control(path, parsed.query)
        with LOCK:
            STATE["requests"] += 1
            STATE["active"] += 1
        try:
            self.count_connection()
            self.serve_file(path, head)
        finally:
            with LOCK:
                STATE["active"] -= 1

    def serve_file(self, path, head):
        if CONFIG["rtt_ms"] > 0:
            time.sleep(CONFIG["rtt_ms"] / 1000)
        full = os.path.realpath(os.path.join(self.root, path.lstrip("/")))
        if not full.startswith(os.path.realpath(self.root) + os.sep) or not os.path.isfile(full):
            return self.simple(404, b"not found\n")
        st = os.stat(full)
        size = st.st_size
        etag = '"%x-%x"' % (st.st_mtime_ns, size)
        parts, status = [(0, size - 1)], 200
        rng = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        if rng and (if_range is None or if_range == etag):
            asked = parse_ranges(rng, size)
            if asked is None:
                pass  # malformed: ignore Range, send the whole file (allowed by RFC 9110)
            elif not asked:
                return self.unsatisfiable(size, etag)
            elif len(asked) > 1 and CONFIG["multi_ranges"] == "refuse":
                return self.unsatisfiable(size, etag)
            elif len(asked) > 1 and CONFIG["multi_ranges"] == "whole":
                pass  # the whole file with 200, as object stores answer
            elif sum(end - start + 1 for start, end in asked) <= size:
                # As nginx: one part per range; ranges longer than the file together get the whole file.
                parts, status = asked, 206
        boundary = "00000000000000000001"
        if len(parts) == 1:
            heads = [b""]
            tail = b""
        else:
            heads = [f"\r\n--{boundary}\r\nContent-Type: video/mp4\r\nContent-Range: bytes {start}-{end}/{size}\r\n\r\n".encode()
                     for start, end in parts]
            tail = f"\r\n--{boundary}--\r\n".encode()
        length = sum(len(h) + end - start + 1 for h, (start, end) in zip(heads, parts)) + len(tail)
        self.send_response(status)
        if len(parts) == 1:
            self.send_header("Content-Type", "video/mp4")
        else:
            self.send_header("Content-Type", f"multipart/byteranges; boundary={boundary}")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
        self.send_header("Content-Length", str(length))
        if status == 206 and len(parts) == 1:
            self.send_header("Content-Range", f"bytes {parts[0][0]}-{parts[0][1]}/{size}")
        self.end_headers()
        sent = 0

        def write(chunk):
            nonlocal sent
            PACER.wait(len(chunk))
            self.wfile.write(chunk)
            sent += len(chunk)
            with LOCK:
                STATE["bodyBytes"] += len(chunk)

        if not head:
            try:
                with open(full, "rb") as f:
                    for part_head, (start, end) in zip(heads, parts):
                        if part_head:
                            write(part_head)
                        f.seek(start)
                        remaining = end - start + 1
                        while remaining > 0:
                            chunk = f.read(min(CHUNK, remaining))
                            if not chunk:
                                break
                            write(chunk)
                            remaining -= len(chunk)
                    if tail:
                        write(tail)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
            finally:
                with LOCK:
                    STATE["log"].append({"range": rng, "status": status, "length": length, "sent": sent})

    def simple(self, code, body):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def unsatisfiable(self, size, etag):
        self.send_response(416)
        self.send_header("Content-Range", f"bytes */{size}")
        self.send_header("ETag", etag)
        self.send_header("Content-Length", "0")
        self.end_headers()


def parse_ranges(header, size):
    """The (first, last) byte pairs of a Range header against `size`: None when malformed, [] when none is satisfiable."""
    m = re.fullmatch(r"\s*bytes=([\d\s,-]+)", header)
    if not m:
        return None
    result = []
    for spec in m.group(1).split(","):
        r = re.fullmatch(r"\s*(\d*)-(\d*)\s*", spec)
        if not r or (r.group(1) == "" and r.group(2) == ""):
            return None
        if r.group(1) == "":  # suffix range
            n = int(r.group(2))
            if n > 0 and size > 0:
                result.append((max(0, size - n), size - 1))
        else:
            start = int(r.group(1))
            end = min(int(r.group(2)), size - 1) if r.group(2) else size - 1
            if start < size and start <= end:
                result.append((start, end))
    return result


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return  # a client that quits mid-response (ffmpeg does, after its frame) is normal here
        super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", help="folder to serve")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--rtt-ms", type=float, default=0)
    ap.add_argument("--bandwidth-mbit", type=float, default=0, help="0 = unlimited")
    ap.add_argument("--no-connect-rtt", action="store_true", help="do not charge a new connection one extra RTT")
    ap.add_argument("--multi-ranges", choices=MULTI_RANGES, default="multipart",
                    help="how a request for several ranges is answered (see above)")
    args = ap.parse_args()
    CONFIG.update(rtt_ms=args.rtt_ms, bandwidth_mbit=args.bandwidth_mbit, connect_rtt=not args.no_connect_rtt,
                  multi_ranges=args.multi_ranges)
    Handler.root = os.path.abspath(args.root)
    server = Server(("127.0.0.1", args.port), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
