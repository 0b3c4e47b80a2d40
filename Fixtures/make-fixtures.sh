#!/usr/bin/env bash
# Re-creates the MP4 test fixtures in this directory and, beside each one,
# <name>.expect.json: ffprobe's independent view of the file (see README.md), then
# <name>.frames.json: md5s of chosen frames as ffmpeg's own decoders output them.
#
#   usage: Fixtures/make-fixtures.sh                 (from anywhere; needs ffmpeg, ffprobe, python3)
#          Fixtures/make-fixtures.sh --frames-only   (only the decode references, from the
#                                                     existing .mp4 and .expect.json files)
#          Fixtures/make-fixtures.sh --av1-only      (only the AV1 fixtures and their references,
#                                                     added later: the others are left as they are)
#          Fixtures/make-fixtures.sh --signalling-only (only the fixtures of section 19 and their references)
#          Fixtures/make-fixtures.sh --best-frame-only (only the fixture of section 20 and its references)
#          Fixtures/make-fixtures.sh --uhd-only      (only the fixture of section 21 and its references)
#          Fixtures/make-fixtures.sh --level6-only   (only the fixture of section 22 and its references)
#
# Outputs are overwritten; intermediates live in a temp dir that is removed on exit.
# Encoders run single-threaded with bitexact flags so a re-run with the same
# ffmpeg/x264/x265 build gives the same bytes.
set -euo pipefail

FRAMES_ONLY=0
AV1_ONLY=0
SIGNALLING_ONLY=0
BEST_FRAME_ONLY=0
UHD_ONLY=0
LEVEL6_ONLY=0
VP9_ONLY=0
case "${1:-}" in
  "") ;;
  --frames-only) FRAMES_ONLY=1 ;;
  --av1-only) AV1_ONLY=1 ;;
  --signalling-only) SIGNALLING_ONLY=1 ;;
  --best-frame-only) BEST_FRAME_ONLY=1 ;;
  --uhd-only) UHD_ONLY=1 ;;
  --level6-only) LEVEL6_ONLY=1 ;;
  --vp9-only) VP9_ONLY=1 ;;
  *) echo "usage: $0 [--frames-only | --av1-only | --signalling-only | --best-frame-only | --uhd-only | --level6-only | --vp9-only]" >&2
     exit 2 ;;
esac

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/make-fixtures.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

for tool in ffmpeg ffprobe python3; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found" >&2; exit 1; }
done

FF=(ffmpeg -nostdin -hide_banner -loglevel error -y)
# Container-level determinism: no encoder tag, no global metadata, no creation time.
MUXDET=(-map_metadata -1 -fflags +bitexact)
# H.264: High profile, fixed GOP of 12 (keyframe every 12 frames), 2 B-frames.
X264=(-c:v libx264 -threads 1 -preset medium -profile:v high -pix_fmt yuv420p
      -crf 28 -g 12 -keyint_min 12 -sc_threshold 0 -bf 2 -flags:v +bitexact)
# HEVC: single-threaded x265, fixed GOP of 12, B-frames.
X265_PARAMS="pools=none:frame-threads=1:keyint=12:min-keyint=12:scenecut=0:bframes=3:log-level=error"
X265=(-c:v libx265 -preset fast -crf 30 -flags:v +bitexact)
AAC=(-c:a aac -b:a 64k -ac 1 -ar 44100 -flags:a +bitexact)

SRC_320x240="testsrc2=size=320x240:rate=25:duration=3"
SRC_320x180="testsrc2=size=320x180:rate=25:duration=2"

# python helper: byte-level checks/patches and the expectation writer.
PY="$TMP/fixtures.py"
cat > "$PY" <<'PY_EOF'
import json, os, re, struct, subprocess, sys

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"udta", b"ilst",
              b"edts", b"moof", b"traf", b"mvex", b"dinf"}

def boxes(data, start, end, path=()):
    """Yield (path, type, box_start, header_size, box_end) for every box, recursively."""
    pos = start
    while pos + 8 <= end:
        size, typ = struct.unpack(">I4s", data[pos:pos + 8])
        hdr = 8
        if size == 1:
            size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]; hdr = 16
        elif size == 0:
            size = end - pos
        if size < hdr or pos + size > end:
            raise SystemExit(f"bad box {typ!r} at {pos}")
        yield path + (typ,), typ, pos, hdr, pos + size
        if typ in CONTAINERS:
            yield from boxes(data, pos + hdr, pos + size, path + (typ,))
        elif typ == b"meta":  # full box: 4 bytes version/flags before children
            yield from boxes(data, pos + hdr + 4, pos + size, path + (typ,))
        pos += size

def video_trak(data):
    """(trak_start, trak_end) of the first trak whose hdlr is 'vide'."""
    for p, t, s, h, e in boxes(data, 0, len(data)):
        if t == b"trak":
            for p2, t2, s2, h2, e2 in boxes(data, s + h, e):
                if t2 == b"hdlr" and data[s2 + h2 + 8:s2 + h2 + 12] == b"vide":
                    return s, e
    return None

def child(data, s, e, typ):
    for p, t, s2, h2, e2 in boxes(data, s, e):
        if t == typ:
            return s2, h2, e2
    return None

def tkhd_matrix_offset(data, trak):
    s, h, e = child(data, trak[0] + 8, trak[1], b"tkhd")
    version = data[s + h]
    return s + (48 if version == 0 else 60), s + (84 if version == 0 else 96)

def cmd_patch_matrix(path, kind):
    """Overwrite the video tkhd matrix with the canonical matrix for `kind`.

    Layout: a b u / c d v / tx ty w (a,b,c,d,tx,ty 16.16; u,v,w 2.30), mapping
    (x, y) -> (a*x + c*y + tx, b*x + d*y + ty) in y-down picture coordinates.
    These are the matrices Apple devices (and ffmpeg <= 4.4 for rotate=N) write;
    rotate-N means "display turned N degrees clockwise".
    """
    data = bytearray(open(path, "rb").read())
    trak = video_trak(data)
    moff, woff = tkhd_matrix_offset(data, trak)
    W, H = struct.unpack(">II", data[woff:woff + 8])   # tkhd width/height, already 16.16
    one = 0x10000
    a, b, c, d, tx, ty = {
        "rotate-90":  (0, one, -one, 0, H, 0),
        "rotate-180": (-one, 0, 0, -one, W, H),
        "rotate-270": (0, -one, one, 0, 0, W),
        "mirrored":   (-one, 0, 0, one, W, 0),
    }[kind]
    data[moff:moff + 36] = struct.pack(">9i", a, b, 0, c, d, 0, tx, ty, 0x40000000)
    open(path, "wb").write(data)

def matrix_of(data):
    trak = video_trak(data)
    if not trak:
        return None
    moff, _ = tkhd_matrix_offset(data, trak)
    return list(struct.unpack(">9i", data[moff:moff + 36]))

def cmd_info(path):
    """Print a short structural summary (for the log / sanity checks)."""
    data = open(path, "rb").read()
    top = [t.decode() for p, t, s, h, e in boxes(data, 0, len(data)) if len(p) == 1]
    print("  top-level:", " ".join(top[:12]) + (" ..." if len(top) > 12 else ""))
    trak = video_trak(data)
    if trak:
        stsd = child(data, trak[0] + 8, trak[1], b"stsd")
        s, h, e = stsd
        print("  sample entry:", data[s + h + 12:s + h + 16].decode(), " tkhd matrix:", matrix_of(data))
        elst = child(data, trak[0] + 8, trak[1], b"elst")
        if elst:
            s, h, e = elst
            ver = data[s + h]; n = struct.unpack(">I", data[s + h + 4:s + h + 8])[0]
            q = s + h + 8; ents = []
            for _ in range(n):
                if ver == 1:
                    d, mt = struct.unpack(">Qq", data[q:q + 16]); q += 16
                else:
                    d, mt = struct.unpack(">Ii", data[q:q + 8]); q += 8
                rate = struct.unpack(">hh", data[q:q + 4]); q += 4
                ents.append({"segment_duration": d, "media_time": mt, "rate": rate[0]})
            print("  elst:", ents)

def cmd_has(path, *fourccs):
    data = open(path, "rb").read()
    missing = [f for f in fourccs if f.encode() not in data]
    if missing:
        raise SystemExit(f"{path}: missing {missing}")

def ffprobe_json(*args):
    out = subprocess.run(["ffprobe", "-v", "error", "-of", "json", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)

def num(x, conv=float):
    if x is None or x == "N/A":
        return None
    return conv(x)

def cmd_first_nals(path, stream_index):
    """NAL unit types of the first video packet (length-prefixed, 4-byte lengths)."""
    pk = ffprobe_json("-select_streams", str(stream_index), "-show_packets",
                      "-read_intervals", "%+#1", path)["packets"][0]
    data = open(path, "rb").read()[int(pk["pos"]):int(pk["pos"]) + int(pk["size"])]
    codec = ffprobe_json("-select_streams", str(stream_index), "-show_streams", path)["streams"][0]["codec_name"]
    types, q = [], 0
    while q + 4 <= len(data):
        n = struct.unpack(">I", data[q:q + 4])[0]
        b = data[q + 4]
        types.append(b & 0x1F if codec == "h264" else (b >> 1) & 0x3F)
        q += 4 + n
    print(" ".join(map(str, types)))

def sps_info(path, stream_index, codec):
    """The first SPS (AV1: sequence header) as ffmpeg's own bitstream parser (trace_headers bsf) reads it."""
    if codec not in ("h264", "hevc", "av1"):
        return None
    err = subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "trace", "-i", path,
                          "-map", f"0:{stream_index}", "-c", "copy", "-bsf:v", "trace_headers",
                          "-frames:v", "1", "-f", "null", "-"],
                         check=True, capture_output=True, text=True).stderr
    lines = [l.split("] ", 1)[1] for l in err.splitlines() if l.startswith("[trace_headers")]
    f, inside = {}, False
    for l in lines:
        if l.strip() in ("Sequence Parameter Set", "Sequence Header"):
            inside = True; continue
        if inside:
            m = re.match(r"\s*\d+\s+(\S+)\s+[01]+ = (-?\d+)$", l)
            if not m:
                break
            f.setdefault(m.group(1), int(m.group(2)))
    if not f:
        raise SystemExit(f"{path}: no SPS found by trace_headers")
    if codec == "av1":
        return av1_sequence_header_info(f)
    cf = f.get("chroma_format_idc", 1)
    sub_w, sub_h = {0: (1, 1), 1: (2, 2), 2: (2, 1), 3: (1, 1)}[cf]
    if codec == "h264":
        fmo = f["frame_mbs_only_flag"]
        w = (f["pic_width_in_mbs_minus1"] + 1) * 16
        h = (f["pic_height_in_map_units_minus1"] + 1) * 16 * (2 - fmo)
        ux, uy = (sub_w, sub_h * (2 - fmo)) if cf else (1, 2 - fmo)
        crop = [f.get(f"frame_crop_{k}_offset", 0) if f.get("frame_cropping_flag") else 0
                for k in ("left", "right", "top", "bottom")]
    else:
        w, h = f["pic_width_in_luma_samples"], f["pic_height_in_luma_samples"]
        ux, uy = sub_w, sub_h
        crop = [f.get(f"conf_win_{k}_offset", 0) if f.get("conformance_window_flag") else 0
                for k in ("left", "right", "top", "bottom")]
    l, r, t, b = crop[0] * ux, crop[1] * ux, crop[2] * uy, crop[3] * uy
    return {"codedWidth": w, "codedHeight": h,
            "cropLeft": l, "cropRight": r, "cropTop": t, "cropBottom": b,
            "croppedWidth": w - l - r, "croppedHeight": h - t - b,
            "chromaFormatIdc": cf,
            "bitDepthLuma": f.get("bit_depth_luma_minus8", 0) + 8,
            "bitDepthChroma": f.get("bit_depth_chroma_minus8", 0) + 8,
            "videoFullRangeFlag": f.get("video_full_range_flag"),
            "colourPrimaries": f.get("colour_primaries"),
            "transferCharacteristics": f.get("transfer_characteristics"),
            "matrixCoefficients": f.get("matrix_coefficients")}

def av1_sequence_header_info(f):
    """sps_info's fields from an AV1 sequence header (AV1 5.5.2 color_config): the largest frame size as the coded
    size, no cropping, subsampling not coded in profiles 0 (4:2:0) and 1 (4:4:4)."""
    w, h = f["max_frame_width_minus_1"] + 1, f["max_frame_height_minus_1"] + 1
    depth = 12 if f.get("twelve_bit") else 10 if f.get("high_bitdepth") else 8
    if f.get("mono_chrome"):
        cf = 0
    else:
        default = (0, 0) if f["seq_profile"] == 1 else (1, 1)
        sx, sy = f.get("subsampling_x", default[0]), f.get("subsampling_y", default[1])
        cf = 3 if not sx else 1 if sy else 2
    return {"codedWidth": w, "codedHeight": h,
            "cropLeft": 0, "cropRight": 0, "cropTop": 0, "cropBottom": 0,
            "croppedWidth": w, "croppedHeight": h,
            "chromaFormatIdc": cf, "bitDepthLuma": depth, "bitDepthChroma": depth,
            "videoFullRangeFlag": f.get("color_range"),
            "colourPrimaries": f.get("color_primaries"),
            "transferCharacteristics": f.get("transfer_characteristics"),
            "matrixCoefficients": f.get("matrix_coefficients")}

def cmd_pps_field(path, field):
    """A field of the first PPS as ffmpeg's trace_headers bsf reads it."""
    err = subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "trace", "-i", path, "-map", "0:v:0",
                          "-c", "copy", "-bsf:v", "trace_headers", "-frames:v", "1", "-f", "null", "-"],
                         check=True, capture_output=True, text=True).stderr
    m = re.search(r"^\[trace_headers[^\]]*\]\s+\d+\s+" + re.escape(field) + r"\s+[01]+ = (-?\d+)$", err, re.M)
    if not m:
        raise SystemExit(f"{path}: no {field} in trace_headers output")
    print(m.group(1))

def cmd_expect(path, out_path):
    info = ffprobe_json("-show_format", "-show_streams", path)
    streams = info["streams"]
    fmt = info["format"]
    video = [s for s in streams if s.get("codec_type") == "video"
             and not s.get("disposition", {}).get("attached_pic", 0)]
    audio = [s for s in streams if s.get("codec_type") == "audio"]
    covers = [s for s in streams if s.get("disposition", {}).get("attached_pic", 0)]
    v = video[0] if video else None
    exp = {"file": os.path.basename(path), "fileSize": os.path.getsize(path)}
    if v is None:
        a = audio[0] if audio else {}
        exp.update({
            "codecName": None, "codecTag": None, "width": None, "height": None,
            "codedWidth": None, "codedHeight": None, "sampleAspectRatio": None,
            "pixFmt": None, "profile": None, "rotation": None, "displayMatrix": None,
            "timeBase": None,
            "duration": num(fmt.get("duration")), "durationTs": None,
            "startTime": num(fmt.get("start_time")),
            "videoStreamIndex": None, "hasBFrames": None, "colorRange": None,
            "colorSpace": None, "colorPrimaries": None, "colorTransfer": None, "sps": None,
        })
        packets = []
    else:
        dm = next((sd for sd in v.get("side_data_list", [])
                   if sd.get("side_data_type") == "Display Matrix"), None)
        sar = v.get("sample_aspect_ratio")
        exp.update({
            "codecName": v.get("codec_name"),
            "codecTag": v.get("codec_tag_string"),
            "width": v.get("width"), "height": v.get("height"),
            "codedWidth": v.get("coded_width"), "codedHeight": v.get("coded_height"),
            "sampleAspectRatio": None if sar in (None, "0:1", "N/A") else sar,
            "pixFmt": v.get("pix_fmt"), "profile": v.get("profile"),
            "rotation": None if dm is None else dm.get("rotation"),
            "displayMatrix": None if dm is None else dm.get("displaymatrix"),
            "timeBase": v.get("time_base"),
            "duration": num(v.get("duration")),
            "durationTs": num(v.get("duration_ts"), int),
            "startTime": num(v.get("start_time")),
            "videoStreamIndex": v["index"],
            "hasBFrames": v.get("has_b_frames"),
            "colorRange": v.get("color_range"), "colorSpace": v.get("color_space"),
            "colorPrimaries": v.get("color_primaries"), "colorTransfer": v.get("color_transfer"),
            "sps": sps_info(path, v["index"], v.get("codec_name")),
        })
        raw = ffprobe_json("-select_streams", str(v["index"]), "-show_packets", path)["packets"]
        packets = [{
            "pts": num(p.get("pts"), int), "dts": num(p.get("dts"), int),
            "duration": num(p.get("duration"), int), "pos": num(p.get("pos"), int),
            "size": int(p["size"]), "key": "K" in p.get("flags", ""),
            "discard": "D" in p.get("flags", ""),
        } for p in raw]
        counted = ffprobe_json("-count_packets", "-select_streams", str(v["index"]),
                               "-show_entries", "stream=nb_read_packets", path)["streams"][0]
        if int(counted["nb_read_packets"]) != len(packets):
            raise SystemExit(f"{path}: packet count mismatch {counted} vs {len(packets)}")
    exp.update({
        "formatDuration": num(fmt.get("duration")),
        "formatName": fmt.get("format_name"),
        "streamCount": len(streams),
        "audioStreamCount": len(audio),
        "audioCodecName": audio[0].get("codec_name") if audio else None,
        "audioSampleRate": num(audio[0].get("sample_rate"), int) if audio else None,
        "audioChannels": audio[0].get("channels") if audio else None,
        "audioDuration": num(audio[0].get("duration")) if audio else None,
        "hasCoverArt": bool(covers),
        "coverArtCodec": covers[0].get("codec_name") if covers else None,
        "packetCount": len(packets),
        "keyframeCount": sum(p["key"] for p in packets),
        "packets": packets,
    })
    with open(out_path, "w") as f:
        # one packet per line keeps diffs readable
        head = {k: v for k, v in exp.items() if k != "packets"}
        text = json.dumps(head, indent=2)[:-2]
        text += ',\n  "packets": [' + ("\n" if packets else "")
        text += ",\n".join("    " + json.dumps(p) for p in packets)
        text += ("\n  " if packets else "") + "]\n}\n"
        json.loads(text)  # sanity
        f.write(text)

def cmd_summary(directory, *names):
    print(f"{'name':<18} {'bytes':>8} {'codec':<6} {'tag':<5} {'WxH':<10} {'rot':>5} {'packets':>7} {'keys':>5}")
    total = 0
    for n in names:
        e = json.load(open(os.path.join(directory, n + ".expect.json")))
        total += e["fileSize"]
        wh = f"{e['width']}x{e['height']}" if e["width"] else "-"
        rot = "-" if e["rotation"] is None else f"{e['rotation']:g}"
        print(f"{n:<18} {e['fileSize']:>8} {str(e['codecName'] or '-'):<6} {str(e['codecTag'] or '-'):<5} "
              f"{wh:<10} {rot:>5} {e['packetCount']:>7} {e['keyframeCount']:>5}")
    print(f"{'total':<18} {total:>8}")

def cmd_set_colr_range(path, full_range):
    """Set the full_range_flag of the colr/nclx box in place (the bitstream's VUI is left as it is)."""
    data = bytearray(open(path, "rb").read())
    i = data.find(b"colrnclx")
    if i < 0:
        raise SystemExit(f"{path}: no colr/nclx box")
    data[i + 14] = (data[i + 14] & 0x7F) | (0x80 if int(full_range) else 0)
    open(path, "wb").write(data)

def cmd_colr(path, primaries, transfer, matrix, full_range):
    """Check the video sample entry has colr/nclx with these code points (ISO/IEC 23001-8)."""
    data = open(path, "rb").read()
    i = data.find(b"colrnclx")
    if i < 0:
        raise SystemExit(f"{path}: no colr/nclx box")
    p, t, m = struct.unpack(">HHH", data[i + 8:i + 14])
    fr = data[i + 14] >> 7
    got = (p, t, m, fr)
    want = tuple(int(x) for x in (primaries, transfer, matrix, full_range))
    print(f"  colr nclx at {i - 4}: primaries {p} transfer {t} matrix {m} full_range {fr}")
    if got != want:
        raise SystemExit(f"{path}: colr nclx {got} != {want}")

# Decode references: <name>.frames.json (and raw frames for the smallest files), made by
# ffmpeg's own decoders. Frame choice uses only the .expect.json packet list.
FRAME_ROLES = ("nearestKeyframeToMid", "frameAtMid", "firstFrame", "lastFrame")
RAW_FRAME_NAMES = ("one-frame", "h264-bframes")   # all roles stored as frames/<name>.<role>.yuv
RAW_MID_CODECS = ("h264",)                         # other files of these codecs: frameAtMid only
RAW_FRAME_LIMIT = 150_000                          # bytes (per frame; h264-1080p-crop is above it)
FRAME_BYTES = {"yuv420p": 3, "yuvj420p": 3, "yuv420p10le": 6}  # bytes per 2 pixels (4:2:0, 8 / 16-bit LE)

def pick_frames(exp):
    """(midTime, midPts, {role: pts}) from the ffprobe packet list (pts in timeBase ticks)."""
    from fractions import Fraction
    tb = Fraction(exp["timeBase"])
    mid_time = exp["duration"] / 2
    mid_pts = round(Fraction(mid_time) / tb)
    pts = sorted(p["pts"] for p in exp["packets"])
    keys = sorted(p["pts"] for p in exp["packets"] if p["key"])
    at_mid = [x for x in pts if x <= mid_pts]
    nonneg = [x for x in pts if x >= 0]
    return mid_time, mid_pts, {
        # min over (distance, pts): the earlier keyframe wins a tie
        "nearestKeyframeToMid": min(keys, key=lambda x: (abs(x - mid_pts), x)),
        "frameAtMid": max(at_mid) if at_mid else min(pts),
        "firstFrame": min(nonneg) if nonneg else min(pts),
        "lastFrame": max(pts),
    }

FF_DECODE = ["ffmpeg", "-nostdin", "-nostats", "-hide_banner", "-noautorotate", "-copyts"]
# -noautorotate: coded orientation. -copyts: without it ffmpeg subtracts the file's start time
# (0.08 s in `fragmented`) and filter pts no longer equal the ffprobe pts.

def decode_all(path, idx, pix_fmt):
    """Decode the whole stream once: per pts, showinfo's (fmt, w, h, adler32) and framemd5's (size, md5)."""
    r = subprocess.run(FF_DECODE + ["-loglevel", "info", "-i", path, "-map", f"0:{idx}",
                        "-vf", "showinfo", "-fps_mode", "passthrough", "-enc_time_base", "-1",
                        "-c:v", "rawvideo", "-pix_fmt", pix_fmt, "-f", "framemd5", "-"],
                       check=True, capture_output=True, text=True)
    tbs = re.findall(r"config in time_base: (\d+/\d+)", r.stderr)
    shown = [(int(m[0]), m[1], int(m[2]), int(m[3]), int(m[4], 16)) for m in re.findall(
        r"\[Parsed_showinfo_0 [^\]]*\] n:\s*\d+ pts:\s*(-?\d+) .*? fmt:(\S+) .*? s:(\d+)x(\d+) .*? checksum:([0-9A-F]+)",
        r.stdout + r.stderr)]
    fmd5_tb = re.search(r"^#tb 0: (\d+/\d+)$", r.stdout, re.M).group(1)
    fmd5 = [(int(m[0]), int(m[1]), m[2]) for m in re.findall(
        r"^0,\s*-?\d+,\s*(-?\d+),\s*\d+,\s*(\d+), ([0-9a-f]{32})$", r.stdout, re.M)]
    return tbs, shown, fmd5_tb, fmd5

def extract(path, idx, pix_fmt, pts):
    """Raw bytes of every decoded frame whose filter pts == pts (the whole stream is decoded in order)."""
    return subprocess.run(FF_DECODE + ["-loglevel", "error", "-i", path, "-map", f"0:{idx}",
                          "-vf", f"select=eq(pts\\,{pts})", "-fps_mode", "passthrough",
                          "-c:v", "rawvideo", "-pix_fmt", pix_fmt, "-f", "rawvideo", "-"],
                          check=True, capture_output=True).stdout

def pict_types(path, idx):
    """{pts: pict_type} from ffprobe -show_frames (ffmpeg's decoder: "I", "P" or "B")."""
    fr = ffprobe_json("-select_streams", str(idx), "-show_entries", "frame=pts,pict_type",
                      path)["frames"]
    out = {}
    for f in fr:
        pts = num(f.get("pts"), int)
        if pts in out:
            raise SystemExit(f"{path}: ffprobe shows two frames with pts {pts}")
        out[pts] = f.get("pict_type")
    return out

def nal_types(data, pos, size):
    out, q, end = [], pos, pos + size
    while q + 4 <= end:
        n = struct.unpack(">I", data[q:q + 4])[0]
        out.append((data[q + 4] >> 1) & 0x3F); q += 4 + n
    return out

def cmd_frames(directory, *names):
    import hashlib, zlib
    for name in names:
        exp_path = os.path.join(directory, name + ".expect.json")
        exp = json.load(open(exp_path))
        if exp["codecName"] is None:
            print(f"== {name}: no video track, no frames.json"); continue
        path = os.path.join(directory, exp["file"])
        if os.path.getsize(path) != exp["fileSize"]:
            raise SystemExit(f"{path}: size differs from {exp_path}; re-run the whole script")
        idx, fmt, w, h = exp["videoStreamIndex"], exp["pixFmt"], exp["width"], exp["height"]
        if fmt not in FRAME_BYTES or w % 2 or h % 2:
            raise SystemExit(f"{name}: unexpected format {fmt} {w}x{h}")
        frame_size = w * h * FRAME_BYTES[fmt] // 2
        mid_time, mid_pts, roles = pick_frames(exp)
        print(f"== {name}.frames.json: {fmt} {w}x{h}, midTime {mid_time} (pts {mid_pts})")

        # One full decode: every packet gives exactly one frame, with the packet's pts, the
        # native pixel format and the cropped size; filter time base = stream time base.
        tbs, shown, fmd5_tb, fmd5 = decode_all(path, idx, fmt)
        want_pts = sorted(p["pts"] for p in exp["packets"])
        problems = []
        if set(tbs) != {exp["timeBase"]} or fmd5_tb != exp["timeBase"]:
            problems.append(f"time bases {tbs} / {fmd5_tb} != {exp['timeBase']}")
        if sorted(s[0] for s in shown) != want_pts or len(set(want_pts)) != len(want_pts):
            problems.append(f"decoded pts {[s[0] for s in shown]} != packet pts {want_pts}")
        if [f[0] for f in fmd5] != [s[0] for s in shown]:
            problems.append("framemd5 pts differ from showinfo pts")
        if {(s[1], s[2], s[3]) for s in shown} != {(fmt, w, h)}:
            problems.append(f"decoded format/size {sorted({s[1:4] for s in shown})} != {fmt} {w}x{h}")
        if {f[1] for f in fmd5} != {frame_size}:
            problems.append(f"framemd5 sizes {sorted({f[1] for f in fmd5})} != {frame_size}")
        if problems:
            raise SystemExit(f"{name}: " + "; ".join(problems))
        print(f"   {len(shown)} frames decoded, each with its packet's pts, {fmt} {w}x{h}, time base {fmd5_tb}")
        adler = {s[0]: s[4] for s in shown}
        md5_of = {f[0]: f[2] for f in fmd5}
        # picture types as ffprobe shows them: one frame per packet pts, I/P/B, keyframes are I
        ptype = pict_types(path, idx)
        if sorted(ptype) != want_pts or not set(ptype.values()) <= {"I", "P", "B"}:
            raise SystemExit(f"{name}: ffprobe frames {sorted(ptype.items())} do not match the packets")
        if any(ptype[p["pts"]] != "I" for p in exp["packets"] if p["key"]):
            raise SystemExit(f"{name}: a key packet is not an I picture")

        data = open(path, "rb").read()
        by_pts = {p["pts"]: p for p in exp["packets"]}
        frames, raws = [], {}
        for role in FRAME_ROLES:
            pts = roles[role]
            raw = extract(path, idx, fmt, pts)
            if len(raw) != frame_size:   # 0 = no match, 2x = two matches
                raise SystemExit(f"{name} {role}: select(pts={pts}) gave {len(raw)} bytes, want {frame_size}")
            md5 = hashlib.md5(raw).hexdigest()
            # same frame as the full decode (framemd5) and unconverted decoder output: showinfo's
            # checksum is taken on the decoder's frame before any format conversion (it is an
            # Adler-32 seeded with 0, not 1, over the visible bytes of each row, plane by plane)
            if md5 != md5_of[pts] or zlib.adler32(raw, 0) != adler[pts]:
                raise SystemExit(f"{name} {role}: pts {pts} md5/adler32 differ from the full decode")
            frames.append({"role": role, "pts": pts, "md5": md5, "size": len(raw),
                           "pictType": ptype[pts]})
            raws[role] = raw
            extra = ""
            if exp["codecName"] == "hevc":
                p = by_pts[pts]
                t = [x for x in nal_types(data, p["pos"], p["size"]) if x < 32]
                extra = f"  VCL NAL {t}" + ("  RASL" if set(t) & {8, 9} else "")
            print(f"   {role:<21} pts {pts:>6}  key {str(by_pts[pts]['key']):<5} {ptype[pts]}  md5 {md5}{extra}")

        out = {"file": exp["file"], "pixFmt": fmt, "width": w, "height": h,
               "timeBase": exp["timeBase"], "midTime": mid_time}
        text = json.dumps(out, indent=2)[:-2]
        text += ',\n  "frames": [\n' + ",\n".join("    " + json.dumps(f) for f in frames) + "\n  ]\n}\n"
        json.loads(text)  # sanity
        with open(os.path.join(directory, name + ".frames.json"), "w") as f:
            f.write(text)

        # raw pictures: every role for RAW_FRAME_NAMES, frameAtMid for the other H.264 files
        if frame_size >= RAW_FRAME_LIMIT:
            keep = ()
        elif name in RAW_FRAME_NAMES:
            keep = FRAME_ROLES
        elif exp["codecName"] in RAW_MID_CODECS:
            keep = ("frameAtMid",)
        else:
            keep = ()
        if keep:
            os.makedirs(os.path.join(directory, "frames"), exist_ok=True)
            for role in keep:
                raw = raws[role]
                with open(os.path.join(directory, "frames", f"{name}.{role}.yuv"), "wb") as f:
                    f.write(raw)

if __name__ == "__main__":
    globals()["cmd_" + sys.argv[1].replace("-", "_")](*sys.argv[2:])
PY_EOF
py() { python3 "$PY" "$@"; }

# The movie file of a fixture: <name>.mov for the QuickTime ones, else <name>.mp4.
fixture_file() {
  if [[ -f "$OUT/$1.mov" ]]; then echo "$OUT/$1.mov"; else echo "$OUT/$1.mp4"; fi
}

NAMES=()
done_fixture() {   # name: writes expectations and logs structure
  local name="$1"
  py expect "$(fixture_file "$name")" "$OUT/$name.expect.json"
  echo "== $name"; py info "$(fixture_file "$name")"
  NAMES+=("$name")
}

# Decode references: for every fixture with a video track, <name>.frames.json with the md5 of
# the decoded frames nearestKeyframeToMid / frameAtMid / firstFrame / lastFrame (picked from the
# .expect.json packet list) and each frame's ffprobe pict_type, plus frames/<name>.<role>.yuv
# for one-frame and h264-bframes (all four roles) and frames/<name>.frameAtMid.yuv for the other
# H.264 files (not h264-1080p-crop: over RAW_FRAME_LIMIT).
# With no arguments: every <name>.expect.json in the directory.
make_frames() {
  local names=("$@") f
  if ((${#names[@]} == 0)); then
    for f in "$OUT"/*.expect.json; do names+=("$(basename "$f" .expect.json)"); done
  fi
  echo
  echo "Decode references ($(ffmpeg -hide_banner -version | head -1 | cut -d' ' -f1-3)):"
  py frames "$OUT" "${names[@]}"
  # Every frame's md5, in presentation order, as ffmpeg's framemd5 muxer lists it (pts in the stream time base).
  for f in "${names[@]}"; do
    [[ -f "$OUT/$f.frames.json" ]] || continue
    ffmpeg -v error -copyts -noautorotate -i "$(fixture_file "$f")" -map 0:v:0 -fps_mode passthrough -enc_time_base -1 -f framemd5 - \
      | grep -v '^#' > "$OUT/frames/$f.framemd5"
  done
}

# 18. AV1 (av01 + av1C with the sequence header in configOBUs), decoded for the references by ffmpeg's libdav1d
#     (ffmpeg's default AV1 decoder). av1-8bit: libaom, single-threaded, GOP of 12, moov in front; its encoder
#     codes hidden alt-ref frames and shows them later with 3-byte show-existing-frame temporal units.
#     av1-10bit: SVT-AV1 Main at 10 bits, 320x180, GOP of 12 (SVT-AV1 is not promised to be bit-exact
#     across runs or builds: a re-run may give other bytes, with references to match).
make_av1() {
  "${FF[@]}" -f lavfi -i "$SRC_320x240" -c:v libaom-av1 -threads 1 -row-mt 0 -cpu-used 6 -crf 40 -g 12 \
    -keyint_min 12 -pix_fmt yuv420p -flags:v +bitexact "${MUXDET[@]}" -movflags +faststart "$OUT/av1-8bit.mp4"
  py has "$OUT/av1-8bit.mp4" av01 av1C
  done_fixture av1-8bit
  "${FF[@]}" -f lavfi -i "$SRC_320x180" -c:v libsvtav1 -preset 8 -crf 40 -g 12 -svtav1-params lp=1 \
    -pix_fmt yuv420p10le -flags:v +bitexact "${MUXDET[@]}" "$OUT/av1-10bit.mp4" 2>/dev/null
  py has "$OUT/av1-10bit.mp4" av01 av1C
  done_fixture av1-10bit
}

# 19. Signalling that is unusual or that the container and the bitstream disagree on.
#     pasp-narrow: SAR 44:45 (narrower than tall), 29.97 fps (30000/1001: frame n starts at 1001n/30000 s, so a
#     six-decimal time falls a fraction of a microsecond before it), no B-frames (openh264 decodes it exactly).
#     colr-range-disagrees: full-range samples (testsrc2 converted to full range), SPS VUI full range, and a colr
#     nclx box whose full_range_flag is then cleared: the box says limited, the bitstream full (as GoPro writes).
#     h264-repeated-references: P slices with 8 reference list entries from an SPS that keeps 4 pictures
#     (written by h264_repeated_references.py; see there), muxed as is.
make_signalling() {
  "${FF[@]}" -f lavfi -i "testsrc2=size=320x180:rate=30000/1001:duration=2" -vf setsar=44/45 "${X264[@]}" -bf 0 \
    "${MUXDET[@]}" "$OUT/pasp-narrow.mp4"
  py has "$OUT/pasp-narrow.mp4" pasp
  done_fixture pasp-narrow
  "${FF[@]}" -f lavfi -i "$SRC_320x180" -vf "scale=out_range=full:out_color_matrix=bt709,format=yuv420p" "${X264[@]}" \
    -color_range pc -color_primaries bt709 -color_trc bt709 -colorspace bt709 -movflags +write_colr \
    "${MUXDET[@]}" "$OUT/colr-range-disagrees.mp4"
  py colr "$OUT/colr-range-disagrees.mp4" 1 1 1 1
  py set-colr-range "$OUT/colr-range-disagrees.mp4" 0
  py colr "$OUT/colr-range-disagrees.mp4" 1 1 1 0
  done_fixture colr-range-disagrees
  python3 "$HERE/h264_repeated_references.py" "$TMP/repeated.h264"
  "${FF[@]}" -r 25 -i "$TMP/repeated.h264" -c copy "${MUXDET[@]}" "$OUT/h264-repeated-references.mp4" 2>/dev/null
  done_fixture h264-repeated-references
}

# 20. Stretches for the best frame, 2 s each at 25 fps, keyframes every 0.48 s: black, a flat colour, a picture
#     blurred (Gaussian, sigma 4), the same picture sharp (6-8 s), faded to 30 % of its light, blurred again. The
#     picture is frame 50 of ffmpeg's mandelbrot source, still. Of the keyframes a best frame considers, those
#     between 6 and 8 s are the only sharp, well-exposed ones.
make_best_frame() {
  "${FF[@]}" -f lavfi -i "mandelbrot=size=320x180:rate=25" -vf "select=eq(n\,50)" -frames:v 1 "$TMP/still.png"
  local still=(-loop 1 -framerate 25 -t 2 -i "$TMP/still.png")
  "${FF[@]}" -f lavfi -i "color=black:size=320x180:rate=25:duration=2" -f lavfi -i "color=c=0x4a7fb5:size=320x180:rate=25:duration=2" \
    "${still[@]}" "${still[@]}" "${still[@]}" "${still[@]}" \
    -filter_complex "[0:v]format=yuv420p[k];[1:v]format=yuv420p[c];[2:v]gblur=sigma=4,format=yuv420p[b1];[3:v]format=yuv420p[s];
      [4:v]lutrgb=r=val*0.3:g=val*0.3:b=val*0.3,format=yuv420p[f];[5:v]gblur=sigma=4,format=yuv420p[b2];
      [k][c][b1][s][f][b2]concat=n=6:v=1[v]" \
    -map "[v]" "${X264[@]}" "${MUXDET[@]}" -movflags +faststart "$OUT/best-frame-stretches.mp4"
  done_fixture best-frame-stretches
}

# 21. 3840x2160 at 2 fps for 2 s, keyframes every 4 frames: ffmpeg's moving gradients, smooth enough that a high
#     CRF keeps the file small (30-60 KB) while each picture still costs what any 4K picture costs to decode, render
#     and encode (the batch's cancellation, memory at 4K).
make_uhd() {
  "${FF[@]}" -f lavfi -i "gradients=s=3840x2160:r=2:d=2:speed=0.05" "${X264[@]}" -crf 38 -g 4 -keyint_min 4 \
    "${MUXDET[@]}" -movflags +faststart "$OUT/h264-2160p.mp4"
  done_fixture h264-2160p
}

# 22. H.264 of level 6.0 (level_idc 60), I and P frames: x264 writes it for 4K with 16 reference frames, or when
#     asked, as here at 320x240. openh264 2.3 refuses an SPS above level 5.2 as if there were none.
make_level6() {
  "${FF[@]}" -f lavfi -i "$SRC_320x240" "${X264[@]}" -bf 0 -level 6.0 "${MUXDET[@]}" -movflags +faststart \
    "$OUT/h264-level6.mp4"
  done_fixture h264-level6
}

# 23. VP9 (vp09 + vpcC) by libvpx, single-threaded, GOP of 12 with alt-ref frames (hidden frames packed with the
#     next shown one in superframes), decoded for the references by ffmpeg's native VP9 decoder (bit-exact with
#     libvpx). vp9-8bit: profile 0; vp9-10bit: profile 2 at 10 bits, 320x180. The Matroska fixtures
#     (Fixtures/matroska/make-matroska.sh) remux them as WebM.
make_vp9() {
  local vp9=(-c:v libvpx-vp9 -threads 1 -row-mt 0 -tile-columns 0 -frame-parallel 0 -deadline good -cpu-used 4
             -b:v 0 -crf 40 -g 12 -keyint_min 12 -auto-alt-ref 1 -lag-in-frames 16 -flags:v +bitexact)
  "${FF[@]}" -f lavfi -i "$SRC_320x240" "${vp9[@]}" -pix_fmt yuv420p "${MUXDET[@]}" -movflags +faststart "$OUT/vp9-8bit.mp4"
  py has "$OUT/vp9-8bit.mp4" vp09 vpcC
  done_fixture vp9-8bit
  "${FF[@]}" -f lavfi -i "$SRC_320x180" "${vp9[@]}" -pix_fmt yuv420p10le -profile:v 2 "${MUXDET[@]}" \
    -movflags +faststart "$OUT/vp9-10bit.mp4"
  py has "$OUT/vp9-10bit.mp4" vp09 vpcC
  done_fixture vp9-10bit
}

if ((FRAMES_ONLY)); then
  make_frames
  exit 0
fi
if ((VP9_ONLY)); then
  make_vp9
  make_frames "${NAMES[@]}"
  exit 0
fi
if ((LEVEL6_ONLY)); then
  make_level6
  make_frames "${NAMES[@]}"
  exit 0
fi
if ((UHD_ONLY)); then
  make_uhd
  make_frames "${NAMES[@]}"
  exit 0
fi
if ((BEST_FRAME_ONLY)); then
  make_best_frame
  make_frames "${NAMES[@]}"
  exit 0
fi
if ((AV1_ONLY)); then
  make_av1
  make_frames "${NAMES[@]}"
  exit 0
fi
if ((SIGNALLING_ONLY)); then
  make_signalling
  make_frames "${NAMES[@]}"
  exit 0
fi

# 1. H.264 High, B-frames, default edit list, moov at the end.
"${FF[@]}" -f lavfi -i "$SRC_320x240" "${X264[@]}" "${MUXDET[@]}" "$OUT/h264-bframes.mp4"
done_fixture h264-bframes

# 2. Same encode, moov in front.
"${FF[@]}" -f lavfi -i "$SRC_320x240" "${X264[@]}" "${MUXDET[@]}" -movflags +faststart "$OUT/h264-faststart.mp4"
done_fixture h264-faststart

# 2b. Same encode with x264 weightb=0 (PPS weighted_bipred_idc 0 instead of 2 = implicit), moov in
#    front. Still B-pyramid + spatial direct. openh264 2.3.1 still differs slightly from ffmpeg on
#    most of its B-frames (see README: "openh264 and B-frames").
"${FF[@]}" -f lavfi -i "$SRC_320x240" "${X264[@]}" -x264-params weightb=0 "${MUXDET[@]}" \
  -movflags +faststart "$OUT/h264-bframes-noweightb.mp4"
done_fixture h264-bframes-noweightb
bipred="$(py pps-field "$OUT/h264-bframes-noweightb.mp4" weighted_bipred_idc)"; echo "  PPS weighted_bipred_idc: $bipred"
[[ "$bipred" == 0 ]] || { echo "error: h264-bframes-noweightb has weighted_bipred_idc $bipred" >&2; exit 1; }

# 2c. The same source with no B-frames (I and P only), moov in front: the H.264 stream that
#    openh264 decodes exactly like ffmpeg, frame for frame.
"${FF[@]}" -f lavfi -i "$SRC_320x240" "${X264[@]}" -bf 0 "${MUXDET[@]}" -movflags +faststart "$OUT/h264-p-only.mp4"
done_fixture h264-p-only

# 3. HEVC 8-bit, hvc1, B-frames.
"${FF[@]}" -f lavfi -i "$SRC_320x240" "${X265[@]}" -pix_fmt yuv420p -profile:v main \
  -x265-params "$X265_PARAMS" -tag:v hvc1 "${MUXDET[@]}" "$OUT/hevc-8bit.mp4"
done_fixture hevc-8bit

# 4. HEVC Main 10.
"${FF[@]}" -f lavfi -i "$SRC_320x240" "${X265[@]}" -pix_fmt yuv420p10le -profile:v main10 \
  -x265-params "$X265_PARAMS" -tag:v hvc1 "${MUXDET[@]}" "$OUT/hevc-main10.mp4"
done_fixture hevc-main10

# 5./6. Orientation. The tkhd matrix of a plain encode is patched in place (same size, no
#    offsets move) to the matrices real devices write: rotate-N = shown N degrees clockwise
#    (rotate-90 is an iPhone portrait clip: a=0 b=1 c=-1 d=0 tx=height), mirrored = a=-1 d=1
#    tx=width. (ffmpeg 5.1 drops `-metadata:s:v:0 rotate=N` when encoding, and on a stream copy
#    it writes the opposite direction with no translation, so it is not used; see README.)
"${FF[@]}" -f lavfi -i "$SRC_320x180" "${X264[@]}" "${MUXDET[@]}" "$TMP/plain-320x180.mp4"
for kind in rotate-90 rotate-180 rotate-270 mirrored; do
  cp "$TMP/plain-320x180.mp4" "$OUT/$kind.mp4"
  py patch-matrix "$OUT/$kind.mp4" "$kind"
  done_fixture "$kind"
  python3 -c "import json,sys; e=json.load(open('$OUT/$kind.expect.json')); sys.exit(0 if e['rotation'] is not None else 'no display matrix in $kind')"
done

# 7. Anamorphic: 256x144 coded, SAR 4:3 -> a pasp box.
"${FF[@]}" -f lavfi -i "testsrc2=size=256x144:rate=25:duration=2" -vf setsar=4/3 "${X264[@]}" \
  "${MUXDET[@]}" "$OUT/pasp-anamorphic.mp4"
py has "$OUT/pasp-anamorphic.mp4" pasp
done_fixture pasp-anamorphic

# 8. 1920x1080 (coded 1920x1088 with SPS cropping): 8 frames, low detail, high CRF.
"${FF[@]}" -f lavfi -i "testsrc2=size=1920x1080:rate=25" -frames:v 8 "${X264[@]}" -crf 40 \
  "${MUXDET[@]}" "$OUT/h264-1080p-crop.mp4"
done_fixture h264-1080p-crop

# 9. Parameter sets in band: avc3 (x264 repeat-headers) and hev1 (x265 repeat-headers).
"${FF[@]}" -f lavfi -i "$SRC_320x180" "${X264[@]}" -x264-params repeat-headers=1 -tag:v avc3 \
  "${MUXDET[@]}" "$OUT/h264-avc3.mp4"
py has "$OUT/h264-avc3.mp4" avc3
done_fixture h264-avc3
nals="$(py first-nals "$OUT/h264-avc3.mp4" 0)"; echo "  first packet NAL types: $nals"
[[ " $nals " == *" 7 "* && " $nals " == *" 8 "* ]] || { echo "error: h264-avc3 has no in-band SPS/PPS" >&2; exit 1; }
"${FF[@]}" -f lavfi -i "$SRC_320x180" "${X265[@]}" -pix_fmt yuv420p -profile:v main \
  -x265-params "$X265_PARAMS:repeat-headers=1" -tag:v hev1 "${MUXDET[@]}" "$OUT/hevc-hev1.mp4"
py has "$OUT/hevc-hev1.mp4" hev1
done_fixture hevc-hev1
nals="$(py first-nals "$OUT/hevc-hev1.mp4" 0)"; echo "  first packet NAL types: $nals"
[[ " $nals " == *" 32 "* && " $nals " == *" 33 "* && " $nals " == *" 34 "* ]] || { echo "error: hevc-hev1 has no in-band VPS/SPS/PPS" >&2; exit 1; }

# 10. Fragmented: empty moov, one fragment per keyframe, moof-relative offsets, a global sidx.
"${FF[@]}" -f lavfi -i "$SRC_320x240" "${X264[@]}" \
  -movflags frag_keyframe+empty_moov+default_base_moof+global_sidx "${MUXDET[@]}" "$OUT/fragmented.mp4"
py has "$OUT/fragmented.mp4" sidx moof trun mvex
done_fixture fragmented

# 11. H.264 + AAC.
"${FF[@]}" -f lavfi -i "$SRC_320x240" -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=3" \
  -map 0:v -map 1:a "${X264[@]}" "${AAC[@]}" "${MUXDET[@]}" "$OUT/audio-video.mp4"
done_fixture audio-video

# 12. AAC only.
"${FF[@]}" -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=3" "${AAC[@]}" \
  "${MUXDET[@]}" "$OUT/audio-only.mp4"
done_fixture audio-only

# 13. Cover art (attached picture -> udta/meta/ilst/covr).
"${FF[@]}" -f lavfi -i "testsrc=size=64x64:rate=1" -frames:v 1 -c:v png -flags:v +bitexact "$TMP/cover.png"
"${FF[@]}" -i "$TMP/plain-320x180.mp4" -i "$TMP/cover.png" -map 0:v -map 1:v \
  -c:v:0 copy -c:v:1 png -flags:v +bitexact -disposition:v:1 attached_pic "${MUXDET[@]}" "$OUT/cover-art.mp4"
py has "$OUT/cover-art.mp4" covr
done_fixture cover-art

# 14b. A fade from black: 1 s of black, then 1 s of testsrc2, so the first keyframes (0, 0.48 s)
#    are black and the third (0.96 s) is a picture: for skip-dark.
"${FF[@]}" -f lavfi -i "color=black:size=320x240:rate=25:duration=1" -f lavfi -i "testsrc2=size=320x240:rate=25:duration=1" \
  -filter_complex "[0:v][1:v]concat=n=2:v=1[v]" -map "[v]" "${X264[@]}" "${MUXDET[@]}" -movflags +faststart "$OUT/dark-start.mp4"
done_fixture dark-start

# 14. A single frame.
"${FF[@]}" -f lavfi -i "testsrc2=size=320x240:rate=25" -frames:v 1 "${X264[@]}" "${MUXDET[@]}" "$OUT/one-frame.mp4"
done_fixture one-frame

# 15./16. HDR signalling: x265 Main 10, BT.2020 primaries, bt2020nc matrix, limited range, with
#    the HLG (arib-std-b67) or PQ (smpte2084) transfer, in the HEVC VUI and in a colr/nclx box.
#    (ffmpeg 5.1 writes colr whenever primaries, transfer and matrix are all set; +write_colr
#    makes that explicit and gives the same bytes.)
for hdr in hlg:arib-std-b67:18 pq:smpte2084:16; do
  IFS=: read -r kind trc trc_code <<<"$hdr"
  "${FF[@]}" -f lavfi -i "$SRC_320x180" "${X265[@]}" -pix_fmt yuv420p10le -profile:v main10 \
    -color_primaries bt2020 -color_trc "$trc" -colorspace bt2020nc -color_range tv \
    -x265-params "$X265_PARAMS" -tag:v hvc1 -movflags +write_colr "${MUXDET[@]}" "$OUT/hevc-$kind.mp4"
  done_fixture "hevc-$kind"
  py colr "$OUT/hevc-$kind.mp4" 9 "$trc_code" 9 0
  python3 -c "import json,sys; e=json.load(open('$OUT/hevc-$kind.expect.json')); s=e['sps']
got=(e['colorPrimaries'], e['colorTransfer'], e['colorSpace'], e['colorRange'], s['colourPrimaries'], s['transferCharacteristics'], s['matrixCoefficients'], s['videoFullRangeFlag'])
sys.exit(0 if got==('bt2020', '$trc', 'bt2020nc', 'tv', 9, $trc_code, 9, 0) else f'hevc-$kind colour fields: {got}')"
done

# 17. QuickTime (`-f mov`, ftyp brand qt): mdia/hdlr is a media handler (component type mhlr,
#     subtype vide) and minf/hdlr a data handler (dhlr, subtype url), as in every .mov an iPhone
#     records. H.264 with B-frames, the default edit list, moov in front.
"${FF[@]}" -f lavfi -i "$SRC_320x240" "${X264[@]}" "${MUXDET[@]}" -movflags +faststart -f mov "$OUT/quicktime-h264.mov"
done_fixture quicktime-h264
py has "$OUT/quicktime-h264.mov" mhlr dhlr

make_av1
make_vp9
make_signalling
make_best_frame
make_uhd
make_level6

echo
echo "$(ffmpeg -hide_banner -version | head -1)"
py summary "$OUT" "${NAMES[@]}"

make_frames "${NAMES[@]}"
