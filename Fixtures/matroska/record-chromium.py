#!/usr/bin/env python3
"""Records a canvas animation with MediaRecorder in Debian's headless chromium (through chromedriver), as a web app
that takes screen or camera recordings gets them: WebM with VP8 or VP9, no Cues, no Duration, a Segment of unknown
size, a Cluster at each keyframe.

    usage: Fixtures/matroska/record-chromium.py MIME SECONDS OUT.webm
    e.g.   Fixtures/matroska/record-chromium.py 'video/webm;codecs=vp9' 6 Fixtures/matroska/chromium-vp9.webm

The page (record.html, which the tests load too) draws 320x240 at 25 frames a second: a background of one colour a second (red, green, blue, yellow, cyan,
magenta, then again) and a white square moving 80 pixels a second. Recordings differ from run to run (the timing of
a live capture), so the tests check what the page drew (the background's colour at a time), and ffmpeg's pictures
of the committed recordings (make-matroska.sh).
"""
import base64, json, os, subprocess, sys, tempfile, time, urllib.request

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "record.html")


def main():
    mime, seconds, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    folder = tempfile.mkdtemp()
    page = PAGE
    port = 9517
    driver = subprocess.Popen(["/usr/bin/chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def call(method, path, body=None):
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(request))

    try:
        for _ in range(50):
            try:
                call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        options = {"binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                                           f"--user-data-dir={folder}/profile"]}
        session = call("POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})["value"]["sessionId"]
        call("POST", f"/session/{session}/url", {"url": "file://" + page})
        call("POST", f"/session/{session}/execute/sync", {"script": "window.record(arguments[0], arguments[1])", "args": [mime, seconds]})
        for _ in range(int(seconds * 2) + 60):
            time.sleep(0.5)
            result = call("POST", f"/session/{session}/execute/sync", {"script": "return window.result", "args": []})["value"]
            if result:
                open(out, "wb").write(base64.b64decode(result))
                break
        else:
            sys.exit("error: the recording did not end")
        call("DELETE", f"/session/{session}")
    finally:
        driver.kill()


if __name__ == "__main__":
    main()
