#!/usr/bin/env python3
"""Writes the independent expectations for the real-world corpus, and REPORT.md.

    Fixtures/real-world/make-expectations.py            expectations + references + REPORT.md
    Fixtures/real-world/make-expectations.py --report   REPORT.md only (from the expectations already here)
    options: --thumbs PATH   the thumbs binary REPORT.md runs (default: .build/debug/thumbs)
             --only NAME     one file (expectations and report lines for it alone; REPORT.md is not rewritten)
             --ffmpeg-decoders  the binary was built with the FFmpegDecoders trait: the files outcomes.json marks
                             "withFFmpegDecoders": "picture" must give ffmpeg's picture (REPORT.md is not rewritten)
             --corpus DIR    another corpus laid out as this one (media/, outcomes.json; expectations/,
                             references/ and REPORT.md written): Fixtures/codecs, whose files we make

Needs ffmpeg (with zscale), ffprobe and python3 (standard library only). For every file in media/:

  expectations/<file>.json   what ffprobe says: the first video stream (ffmpeg's `-map 0:V:0`: attached
                             pictures are not video), its codec, sample entry, coded and display size
                             (SAR, rotation), colour, packet and keyframe counts, and the two frames
                             the conformance suite asks for, as times on the movie timeline;
  references/<file>.<role>.png  ffmpeg's picture of those frames, turned, fitted inside 160x160 (never
                             upscaled) with the area filter, converted to RGB with the stream's matrix
                             and range (an unspecified matrix: BT.601 below HD, BT.709 from 1280 wide
                             or 577 high up, the rule the renderer documents), PQ and HLG tone-mapped
                             as Fixtures/make-thumbnail-references.sh does.

The two frames ("roles"):
  first  the frame on screen at 0 s: the last decoded frame whose pts is <= 0, else the first one; but
         when ffmpeg left out the frame an edit list starts inside, ffmpeg's first frame, asked mid-frame;
  mid    the frame in the middle of the presented frames (index n // 2 in presentation order). Its
         request time is halfway between its pts and the next frame's, so that the frame is the one
         on screen at that time whatever rounding either side does.
Times are ffmpeg's pts with -copyts: ffmpeg's mov demuxer puts them on the movie timeline (edit lists
applied, an initial empty edit as a delay), which is the timeline our requests use; ffmpeg's `-ss`
would count from the file's start_time instead, so it is not used. One exception is undone: in a
fragmented track with negative composition offsets and no edit list, ffmpeg 5.1 adds its largest
negative offset to every pts (its dts_shift), where ISO/IEC 14496-12 and CMAF present each sample at
decode time + offset; and when an edit list starts in the middle of a frame, ffmpeg drops that frame and
starts its timeline at the next one, where the standard shows it from the start of the edit. In both
cases every pts differs from the movie timeline by the same amount: `ffmpegPtsShift` records it (found
from the file's own boxes, read here), and `pts` (for ffmpeg's select) keeps ffmpeg's value. A bare transport
stream's timeline starts at its first picture (the earliest pts up to its first keyframe): that pts is its shift.

outcomes.json (written by hand) names the files that must give a typed error instead of a thumbnail,
with the error and why (and, as "withFFmpegDecoders": "picture", those a build with that trait decodes; as
"interlaced": true, those whose picture is deinterlaced, compared at 30 dB), and the files whose packet or keyframe count ffprobe cannot give (it counts what
it could read), for which the info test uses the counts read from the fragments' boxes here. REPORT.md is one line per file: what `thumbs thumbnail --exact` gave for each
role (PSNR against the reference, or the error), and the counts.
"""
import argparse, glob, json, os, re, subprocess, sys, tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import reference_pictures as refs  # geometry and the filter chain, shared with Fixtures/make-thumbnail-references.sh
from movie_boxes import MovieBoxes

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = HERE  # --corpus moves it (and the three folders below) before anything is read
MEDIA = os.path.join(HERE, "media")
EXPECT = os.path.join(HERE, "expectations")
REFS = os.path.join(HERE, "references")
BOX = 160
PSNR_FLOOR = 35.0
INTERLACED_PSNR_FLOOR = 30.0  # an interlaced frame is deinterlaced here, and ffmpeg's picture of it is not

def ffmpeg_pts_offset(path, movie, stream_index, track_id):
    """Ticks by which ffmpeg's pts of a moov track differ from the movie timeline, when they all differ alike.

    ffmpeg drops the frame an edit list starts in the middle of and starts its timeline at the next frame;
    the standard shows that frame from the start of the edit. Packets are paired with samples in order.
    """
    iso = movie.presentation_times(track_id)
    if not iso:
        return 0
    packets = ffprobe(path, "-select_streams", str(stream_index), "-show_entries", "packet=pts").get("packets", [])
    if len(packets) != len(iso):
        return 0
    differences = [int(p["pts"]) - t for p, t in zip(packets, iso) if "pts" in p]
    if not differences:
        return 0
    common = max(set(differences), key=differences.count)
    return common if differences.count(common) * 2 > len(differences) else 0


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw)


def ffprobe(path, *args):
    return json.loads(run(["ffprobe", "-v", "error", "-of", "json", *args, path]).stdout)


def main_video_stream(streams):
    """The stream `-map 0:V:0` picks: the first video stream that is not an attached picture."""
    for stream in streams:
        if stream.get("codec_type") == "video" and not stream.get("disposition", {}).get("attached_pic"):
            return stream
    return None


def rotation_of(stream):
    for side in stream.get("side_data_list", []):
        if "rotation" in side:
            return side["rotation"]
    return None


def display_matrix_of(stream):
    for side in stream.get("side_data_list", []):
        if "displaymatrix" in side:
            return side["displaymatrix"]
    return None


def dolby_vision_of(stream):
    """ffprobe's Dolby Vision configuration record of the stream: its profile and compatibility ID, or None."""
    for side in stream.get("side_data_list", []):
        if "dv_profile" in side:
            return {"profile": side["dv_profile"], "compatibility": side.get("dv_bl_signal_compatibility_id")}
    return None


def decoded_frames(path, index):
    """(pts, duration) of every frame ffmpeg decodes from stream `index`, in presentation order, stream time base."""
    out = run(["ffprobe", "-v", "error", "-select_streams", str(index), "-show_entries",
               "frame=best_effort_timestamp,pts,pkt_duration,duration", "-of", "json", path]).stdout
    frames = []
    for frame in json.loads(out).get("frames", []):
        pts = frame.get("pts", frame.get("best_effort_timestamp"))
        if pts is None:
            continue
        duration = frame.get("duration", frame.get("pkt_duration"))
        frames.append((int(pts), int(duration) if duration is not None else None))
    frames.sort()
    return frames


def pick_roles(frames, time_base, dropped_first):
    """{role: (pts, request seconds)} from the decoded frames."""
    roles = {}
    at_zero = [pts for pts, _ in frames if pts <= 0]
    if at_zero:
        roles["first"] = (max(at_zero), 0.0)
    elif not dropped_first:
        roles["first"] = (frames[0][0], 0.0)  # a time before the first frame gives the first frame
    else:
        # ffmpeg left out the frame on screen at 0 (the one an edit starts inside): ask for its first frame.
        pts, duration = frames[0]
        following = frames[1][0] if len(frames) > 1 else pts + (duration or 1)
        roles["first"] = (pts, float((Fraction(pts) + Fraction(following - pts) / 2) * time_base))
    middle = len(frames) // 2
    pts, duration = frames[middle]
    following = frames[middle + 1][0] if middle + 1 < len(frames) else pts + (duration or 1)
    request = (Fraction(pts) + Fraction(following - pts) / 2) * time_base
    roles["mid"] = (pts, float(request))
    return roles


def write_reference(path, stream_index, pts, size, chain, target):
    """ffmpeg's picture of the frame with `pts`, through `chain`, checked to be `size` rgb24."""
    # ffmpeg may exit non-zero for errors in frames after this one (a file cut short): the probe checks the picture.
    subprocess.run(refs.ffmpeg_command(path, stream_index, f"select=eq(pts\\,{pts})", chain, target), capture_output=True)
    if not os.path.exists(target):
        raise RuntimeError(f"ffmpeg wrote no {target}")
    probe = run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                 "stream=width,height,pix_fmt", "-of", "csv=p=0", target]).stdout.strip()
    if probe != f"{size[0]},{size[1]},rgb24":
        raise RuntimeError(f"{target} is {probe}, expected {size[0]}x{size[1]} rgb24")


def expect(name, expects_error):
    path = os.path.join(MEDIA, name)
    try:
        probe = ffprobe(path, "-show_streams", "-show_format", "-count_packets")
    except subprocess.CalledProcessError as error:
        message = (error.stderr.strip().splitlines() or ["ffprobe failed"])[-1][:200]
        return {"file": name, "fileSize": os.path.getsize(path), "ffprobeError": message,
                "videoStreamCount": 0, "video": None}
    result = {"file": name, "fileSize": os.path.getsize(path),
              "formatName": probe.get("format", {}).get("format_name"),
              "videoStreamCount": sum(1 for s in probe.get("streams", []) if s.get("codec_type") == "video"
                                      and not s.get("disposition", {}).get("attached_pic"))}
    stream = main_video_stream(probe.get("streams", []))
    if stream is None:
        result["video"] = None
        return result
    index = stream["index"]
    packets = ffprobe(path, "-select_streams", str(index), "-show_entries", "packet=flags").get("packets", [])
    rotation = rotation_of(stream)
    width, height = stream.get("width", 0), stream.get("height", 0)
    sar = stream.get("sample_aspect_ratio")
    video = {
        "streamIndex": index, "trackID": int(stream["id"], 16) if stream.get("id") else None,
        "codecName": stream.get("codec_name"), "codecTag": stream.get("codec_tag_string"),
        "profile": stream.get("profile"), "pixFmt": stream.get("pix_fmt"),
        "width": width, "height": height, "sampleAspectRatio": sar,
        "rotation": rotation, "displayMatrix": display_matrix_of(stream),
        "colorSpace": stream.get("color_space"), "colorRange": stream.get("color_range"),
        "colorTransfer": stream.get("color_transfer"), "colorPrimaries": stream.get("color_primaries"),
        "timeBase": stream.get("time_base"), "startTime": stream.get("start_time"),
        "packetCount": int(stream.get("nb_read_packets", len(packets))),
        "keyPacketCount": sum(1 for p in packets if "K" in p.get("flags", "")),
    }
    if width and height:
        video["displayWidth"], video["displayHeight"] = refs.display_size(width, height, sar, rotation)
    if dolby_vision_of(stream):
        video["dolbyVision"] = dolby_vision_of(stream)
    movie = MovieBoxes(path)
    counts = movie.fragment_sample_counts(video["trackID"]) if video["trackID"] is not None else None
    if counts:  # read here from the boxes: what the index says, where ffprobe counts what it could read
        video["fragmentSampleCount"], video["fragmentSyncSampleCount"] = counts
    result["video"] = video
    # Frames ffmpeg decodes, even when it stops with an error later (a file cut short still has its first frames).
    frames = decoded_frames(path, index) if width and height else []
    video["ffmpegDecodes"] = bool(frames)
    if not frames:
        decodes = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-map", f"0:{index}",
                                  "-frames:v", "1", "-f", "null", "-"], capture_output=True, text=True)
        video["ffmpegError"] = (decodes.stderr.strip().splitlines() or ["no frames"])[-1][:200]
        return result
    video["decodedFrameCount"] = len(frames)
    time_base = Fraction(stream["time_base"])
    size = refs.fitted(video["displayWidth"], video["displayHeight"], BOX)
    matrix, rng = refs.colour_of(stream.get("color_space"), stream.get("color_range"), width, height)
    chain = refs.filter_chain(size, re.search(r"p1[02]", stream.get("pix_fmt", "")) is not None, matrix, rng,
                              stream.get("color_transfer"), stream.get("color_primaries"))
    video["reference"] = {"width": size[0], "height": size[1], "matrix": matrix, "range": rng,
                          "toneMapped": refs.is_hdr(stream.get("color_transfer"))}
    video["roles"] = []
    fragment_shift, edit_offset = 0, 0
    if video["trackID"] is not None:
        fragment_shift = movie.ffmpeg_fragment_shift(video["trackID"])
        edit_offset = 0 if fragment_shift else ffmpeg_pts_offset(path, movie, index, video["trackID"])
    shift = fragment_shift or edit_offset
    if "mpegts" in (result["formatName"] or ""):
        # A transport stream's timeline starts at its first picture (the earliest pts up to the first keyframe, in
        # decoding order), where ffmpeg's pts are the stream's own.
        timed = ffprobe(path, "-select_streams", str(index), "-show_entries", "packet=pts,flags").get("packets", [])
        leading = []
        for packet in timed:
            if "pts" in packet:
                leading.append(int(packet["pts"]))
            if "K" in packet.get("flags", ""):
                break
        shift = min(leading) if leading else 0
    if shift:
        video["ffmpegPtsShift"] = shift
    # Times on the ISO timeline: ffmpeg's pts less its shift (MovieBoxes.ffmpeg_fragment_shift, ffmpeg_pts_offset).
    iso_frames = [(pts - shift, duration) for pts, duration in frames]
    dropped_first = edit_offset != 0
    for role, (pts, seconds) in pick_roles(iso_frames, time_base, dropped_first).items():
        if not expects_error:  # no picture is compared for a file that must give an error (encrypted ones decode to noise)
            write_reference(path, index, pts + shift, size, chain, os.path.join(REFS, f"{name}.{role}.png"))
        video["roles"].append({"role": role, "pts": pts + shift, "ptsSeconds": float(Fraction(pts) * time_base),
                               "requestSeconds": seconds})
    return result


def psnr(ours, reference):
    """ffmpeg's PSNR over the RGB planes of two same-sized PNGs (the `average` figure), or None when sizes differ."""
    sizes = [run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                  "-of", "csv=p=0", p]).stdout.strip() for p in (ours, reference)]
    if sizes[0] != sizes[1]:
        return None, sizes[0]
    out = subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-i", ours, "-i", reference, "-lavfi",
                          "[0]format=rgb24[a];[1]format=rgb24[b];[a][b]psnr", "-f", "null", "-"],
                         capture_output=True, text=True).stderr
    match = re.search(r"average:(\S+)", out)
    if not match:
        return None, sizes[0]
    return (float("inf") if match.group(1) == "inf" else float(match.group(1))), sizes[0]


def report_line(thumbs, name, expectation, outcomes, ffmpeg_decoders=False):
    path = os.path.join(MEDIA, name)
    expected = outcomes.get(name, {}).get("error")
    if ffmpeg_decoders and outcomes.get(name, {}).get("withFFmpegDecoders") == "picture":
        expected = None  # a binary built with the trait decodes it
    video = expectation.get("video")
    results = []
    passed = True
    roles = (video or {}).get("roles") or [{"role": "first", "requestSeconds": 0.0}]
    if expected is not None:
        roles = roles[:1]  # a file that must give an error is asked once, at 0 s, as the test suite asks it
    with tempfile.TemporaryDirectory() as tmp:
        for role in roles:
            target = os.path.join(tmp, role["role"] + ".png")
            args = [thumbs, "thumbnail", path, "--exact", "--time", repr(role["requestSeconds"]),
                    "--max-size", str(BOX), "--stats", "-o", target]
            try:
                done = subprocess.run(args, capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                results.append(f"{role['role']}: HANG")
                passed = False
                continue
            if done.returncode != 0:
                message = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[0]
                message = message.replace(path, name)
                crashed = done.returncode < 0 or done.returncode > 100
                results.append(f"{role['role']}: {'CRASH ' if crashed else ''}error: {message}")
                passed = passed and expected is not None and not crashed
                continue
            if expected is not None:
                results.append(f"{role['role']}: thumbnail, but outcomes.json expects {expected['type']}.{expected['code']}")
                passed = False
                continue
            reference = os.path.join(REFS, f"{name}.{role['role']}.png")
            if not os.path.exists(reference):
                results.append(f"{role['role']}: thumbnail (no ffmpeg reference)")
                passed = False
                continue
            quality, size = psnr(target, reference)
            try:
                actual = json.loads(done.stderr.strip().splitlines()[-1])["actualTime"]
            except (IndexError, KeyError, ValueError):
                actual = None
            if actual is None or abs(actual - role["ptsSeconds"]) >= 0.0005:
                results.append(f"{role['role']}: frame at {actual} s, ffmpeg's at {role['ptsSeconds']:.4f} s")
                passed = False
            elif quality is None:
                results.append(f"{role['role']}: size {size.replace(',', 'x')}, ffmpeg's differs")
                passed = False
            else:
                results.append(f"{role['role']}: {quality:.1f} dB")
                floor = INTERLACED_PSNR_FLOOR if outcomes.get(name, {}).get("interlaced") else PSNR_FLOOR
                passed = passed and quality >= floor
    return passed, "; ".join(results)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--thumbs", default=os.path.join(ROOT, ".build", "debug", "thumbs"))
    parser.add_argument("--only")
    parser.add_argument("--corpus", default=HERE)
    parser.add_argument("--ffmpeg-decoders", action="store_true")
    options = parser.parse_args()
    global CORPUS, MEDIA, EXPECT, REFS
    CORPUS = os.path.abspath(options.corpus)
    MEDIA, EXPECT, REFS = (os.path.join(CORPUS, folder) for folder in ("media", "expectations", "references"))
    os.makedirs(EXPECT, exist_ok=True)
    os.makedirs(REFS, exist_ok=True)
    names = sorted(os.listdir(MEDIA)) if not options.only else [options.only]
    outcomes = json.load(open(os.path.join(CORPUS, "outcomes.json")))
    if not options.report:
        for name in names:
            for stale in glob.glob(os.path.join(REFS, glob.escape(name) + ".*.png")):
                os.remove(stale)
            # A file that must give an error has no reference pictures, unless the FFmpegDecoders build decodes it.
            outcome = outcomes.get(name, {})
            expectation = expect(name, "error" in outcome and outcome.get("withFFmpegDecoders") != "picture")
            with open(os.path.join(EXPECT, name + ".json"), "w") as out:
                json.dump(expectation, out, indent=1, sort_keys=True)
                out.write("\n")
            video = expectation.get("video") or {}
            print(f"{name}: {video.get('codecName')} {video.get('displayWidth')}x{video.get('displayHeight')}"
                  f" packets {video.get('packetCount')} decodes {video.get('ffmpegDecodes')}", flush=True)
    if not os.access(options.thumbs, os.X_OK):
        sys.exit(f"no thumbs binary at {options.thumbs}: build it (swift build) to write REPORT.md")
    lines, good = [], 0
    for name in names:
        expectation = json.load(open(os.path.join(EXPECT, name + ".json")))
        passed, text = report_line(options.thumbs, name, expectation, outcomes, options.ffmpeg_decoders)
        good += passed
        lines.append(f"| {'ok' if passed else 'FAIL'} | `{name}` | {text} |")
        print(lines[-1], flush=True)
    if options.only or options.ffmpeg_decoders:
        return
    version = run(["ffmpeg", "-hide_banner", "-version"]).stdout.splitlines()[0]
    with open(os.path.join(CORPUS, "REPORT.md"), "w") as out:
        title = "Real-world corpus" if CORPUS == HERE else f"Corpus {os.path.relpath(CORPUS, ROOT)}"
        out.write(f"# {title}: outcomes\n\n")
        out.write("Written by `Fixtures/real-world/make-expectations.py` (do not edit). Each file is asked for the\n"
                  "exact frame at each role's time (`thumbs thumbnail --exact --max-size 160`); the picture is\n"
                  f"compared with ffmpeg's ({version}) by PSNR over RGB. A line is ok when every role\n"
                  f"gives ffmpeg's frame (its start as the actual time) at ffmpeg's size and {PSNR_FLOOR:.0f} dB or more\n"
                  f"({INTERLACED_PSNR_FLOOR:.0f} dB for the interlaced ones outcomes.json marks, shown deinterlaced),\n"
                  "or an error where `outcomes.json` expects one (the test suite also checks its type and code).\n\n")
        errors = sum(1 for name in names if "error" in outcomes.get(name, {}))
        out.write(f"Counts: {len(names)} files, {good} ok, {len(names) - good} failing; "
                  f"{len(names) - errors} expected to give a picture, {errors} a typed error.\n\n")
        out.write("| outcome | file | roles |\n| --- | --- | --- |\n")
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
