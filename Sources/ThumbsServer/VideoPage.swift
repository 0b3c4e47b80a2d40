import Storyboards

/// The page `GET /` serves: a grid of the videos' posters, lazy-loaded (`loading="lazy"`, `srcset` for 1x and 2x
/// screens), each the keyframe that makes the best poster (`time=best`: not the black of a fade-in), with hover
/// scrubbing from each video's storyboard (its JSON manifest is fetched on the first hover; the pointer's place across
/// the picture picks the cue, whose tile is shown from its sheet). A movie without video is a "No video" tile, a
/// picture that failed otherwise a "No picture" tile naming why, never a broken image.
struct VideoPage {
    /// One video: its name, and the query that names it to the service (`path=…` or `url=…`, percent-encoded).
    struct Entry {
        var name: String
        var source: String
    }

    /// Thumbnail box in CSS pixels.
    static let width = 320
    static let height = 180

    /// The HTML, with every service URL made by `link` (path and query to URL, signed when the server signs).
    static func html(_ entries: [Entry], link: (_ path: String, _ query: String) -> String) -> String {
        var figures = ""
        for entry in entries {
            let box = "time=best&width=\(width)&height=\(height)&fit=pad"
            let double = "time=best&width=\(2 * width)&height=\(2 * height)&fit=pad"
            let oneX = link("/thumbnail", "\(entry.source)&\(box)")
            let twoX = link("/thumbnail", "\(entry.source)&\(double)")
            let storyboard = link("/storyboard.json", "\(entry.source)&width=160&columns=10&rows=10")
            figures += """
                <figure class="video" data-storyboard="\(XMLEscaping.escaped(storyboard))">
                  <div class="frame">
                    <img loading="lazy" decoding="async" width="\(width)" height="\(height)" alt="\(XMLEscaping.escaped(entry.name))"
                         src="\(XMLEscaping.escaped(oneX))" srcset="\(XMLEscaping.escaped(oneX)) 1x, \(XMLEscaping.escaped(twoX)) 2x">
                    <div class="scrub" hidden></div>
                    <div class="bar"></div>
                  </div>
                  <figcaption>\(XMLEscaping.escaped(entry.name))</figcaption>
                </figure>

            """
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Videos</title>
            <style>
              body { margin: 0; padding: 16px; background: #111; color: #ddd; font: 14px system-ui, sans-serif; }
              main { display: grid; grid-template-columns: repeat(auto-fill, minmax(\(width)px, 1fr)); gap: 16px; }
              figure { margin: 0; }
              .frame { position: relative; width: \(width)px; height: \(height)px; background: #000; overflow: hidden; }
              .frame img { display: block; width: 100%; height: 100%; }
              .scrub { position: absolute; left: 0; width: 100%; background-repeat: no-repeat; }
              .bar { position: absolute; left: 0; bottom: 0; height: 3px; width: 0; background: #e33; }
              .missing { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
                         color: #888; background: #1c1c1c; font-size: 16px; }
              figcaption { margin-top: 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; width: \(width)px; }
            </style>
            </head>
            <body>
            <main>
            \(figures)</main>
            <script>
            \(script)
            </script>
            </body>
            </html>

            """
    }

    /// A tile in place of a picture that failed: the service's answer (JSON) says whether the movie has no video.
    /// Then hover scrubbing: the manifest once per video, then the cue under the pointer shown from its sheet.
    static let script = """
        const missing = (img) => {
          if (img.dataset.missing) return;
          img.dataset.missing = "1";
          fetch(img.currentSrc || img.src).then(r => r.json()).catch(() => ({}))
            .then(answer => {
              const tile = document.createElement("div");
              tile.className = "missing";
              tile.textContent = answer.error === "noVideo" ? "No video" : "No picture";
              if (answer.detail) tile.title = answer.detail;
              img.replaceWith(tile);
            });
        };
        for (const img of document.querySelectorAll("figure.video img")) {
          img.addEventListener("error", () => missing(img));
          if (img.complete && img.naturalWidth === 0 && img.currentSrc) missing(img);
        }
        for (const figure of document.querySelectorAll("figure.video")) {
          const frame = figure.querySelector(".frame");
          const scrub = figure.querySelector(".scrub");
          const bar = figure.querySelector(".bar");
          const manifestURL = new URL(figure.dataset.storyboard, location.href);
          let manifest = null;
          let loading = null;
          const load = () => loading ??= fetch(manifestURL).then(r => r.ok ? r.json() : null)
            .then(m => { manifest = m; }).catch(() => null);
          const show = (clientX) => {
            if (!manifest || manifest.cues.length === 0) return;
            const box = frame.getBoundingClientRect();
            const fraction = Math.min(Math.max((clientX - box.left) / box.width, 0), 0.999);
            const time = fraction * manifest.durationMs;
            const cue = manifest.cues.find(c => time >= c.startMs && time < c.endMs) ?? manifest.cues[manifest.cues.length - 1];
            const sheet = manifest.sheets.find(s => s.file === cue.file) ?? { width: cue.w, height: cue.h };
            const scale = box.width / cue.w;
            scrub.style.backgroundImage = `url("${new URL(cue.file, manifestURL)}")`;
            scrub.style.backgroundSize = `${sheet.width * scale}px ${sheet.height * scale}px`;
            scrub.style.backgroundPosition = `${-cue.x * scale}px ${-cue.y * scale}px`;
            scrub.style.height = `${cue.h * scale}px`;
            scrub.style.top = `${(box.height - cue.h * scale) / 2}px`;
            scrub.hidden = false;
            bar.style.width = `${fraction * 100}%`;
            figure.dataset.scrubCue = String(manifest.cues.indexOf(cue));
          };
          frame.addEventListener("mouseenter", event => { load().then(() => show(event.clientX)); });
          frame.addEventListener("mousemove", event => show(event.clientX));
          frame.addEventListener("mouseleave", () => { scrub.hidden = true; bar.style.width = "0"; delete figure.dataset.scrubCue; });
        }
        """
}
