"""What ffmpeg is asked to do to make a reference thumbnail: one place for both reference scripts
(Fixtures/make-thumbnail-references.sh and Fixtures/real-world/make-expectations.py).

Geometry: the cropped width scaled by the sample aspect ratio to the nearest pixel (as ffmpeg writes tkhd), turned
for 90/270 degrees, then fitted inside a box with the limiting side exact and the other rounded half up,
never upscaled, as Track.displaySize and the renderer's layout do.

Colour: area-scaled in Y'CbCr straight to the output size and to 4:4:4, range kept as coded (swscale would
otherwise move full-range samples to limited range on the way), then zscale to RGB with the stream's matrix
and range. An unspecified range is limited; an unspecified matrix is BT.601 (170m) below HD and BT.709 from
1280 wide or 577 high up, the guess the renderer documents. PQ and HLG go to linear light (npl=100), BT.2020
to BT.709 primaries, tonemap=hable (desat=0, peak=10), then BT.709 with its BT.1886 inverse EOTF, every zscale
with agamma=0 (Sources/Thumbs/Rendering/ToneMapper.swift documents the same operator).

`probe_video` and `frame_pictures` read a fixture and picture its frames for the Matroska and transport stream
fixtures' scripts (Fixtures/matroska/make-matroska.sh, Fixtures/transport/make-transport.sh).
"""
import json
import subprocess

MATRIX = {"bt709": "709", "smpte170m": "170m", "bt470bg": "470bg", "bt2020nc": "2020_ncl",
          "bt2020c": "2020_ncl", "fcc": "fcc", "smpte240m": "240m"}
RANGE = {"tv": "limited", "pc": "full"}
PRIMARIES = {"bt2020": "2020", "bt709": "709", "smpte170m": "170m", "bt470bg": "470bg"}
HDR_TRANSFERS = {"smpte2084", "arib-std-b67"}
SWSCALE_FLAGS = "area+accurate_rnd+full_chroma_int"


def round_half_up(numerator, denominator):
    return (2 * numerator + denominator) // (2 * denominator)


def display_size(width, height, sar, rotation):
    """Cropped width times the SAR (nearest, half up), turned when the matrix turns 90/270 degrees."""
    if sar and sar not in ("0:1", "1:1"):
        h, v = (int(part) for part in sar.split(":"))
        if h > 0 and v > 0:
            width = round_half_up(width * h, v)
    if rotation is not None and round(abs(rotation)) % 180 == 90:
        width, height = height, width
    return max(width, 1), max(height, 1)


def fitted(width, height, box):
    """Inside box x box, aspect kept, the limiting side exactly box, never upscaled."""
    if width <= box and height <= box:
        return width, height
    if height <= width:
        return box, max(1, round_half_up(height * box, width))
    return max(1, round_half_up(width * box, height)), box


def is_hdr(transfer):
    return transfer in HDR_TRANSFERS


def colour_of(color_space, color_range, coded_width, coded_height):
    """The zscale matrix and range names for a stream's ffprobe colour fields (None when unspecified)."""
    guessed = "709" if coded_width >= 1280 or coded_height > 576 else "170m"
    return MATRIX.get(color_space, guessed), RANGE.get(color_range, "limited")


def filter_chain(size, ten_bit, matrix, rng, transfer, primaries):
    """The -vf chain after the frame is selected: scale, convert, tone-map if HDR, to rgb24 with no colour tags."""
    width, height = size
    yuv444 = "yuv444p10le" if ten_bit else "yuv444p"
    scale = f"scale={width}:{height}:flags={SWSCALE_FLAGS}:in_range={rng}:out_range={rng},format={yuv444}"
    if is_hdr(transfer):
        colour = (f"zscale=matrixin={matrix}:rangein={rng}:transferin={transfer}"
                  f":primariesin={PRIMARIES.get(primaries, '2020')}"
                  f":transfer=linear:npl=100:agamma=0,format=gbrpf32le,zscale=primaries=709:agamma=0,"
                  f"tonemap=tonemap=hable:desat=0:peak=10,"
                  f"zscale=transfer=709:matrix=709:range=full:agamma=0,format=gbrp")
    else:
        colour = f"zscale=matrixin={matrix}:rangein={rng}:matrix={matrix}:range=full:agamma=0,format=gbrp"
    return (f"{scale},{colour},format=rgb24,setsar=1,"
            "setparams=color_primaries=unknown:color_trc=unknown:colorspace=unknown")


def ffmpeg_command(path, stream_index, select, chain, target):
    """ffmpeg writing the one selected frame of `stream_index` through `chain` to `target` as a bit-exact PNG."""
    return ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-sws_flags", SWSCALE_FLAGS,
            "-copyts", "-i", path, "-map", f"0:{stream_index}", "-vf", f"{select},{chain}",
            "-fps_mode", "passthrough", "-frames:v", "1", "-c:v", "png", "-pred", "mixed",
            "-compression_level", "9", "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
            "-f", "image2", target]


def probe_video(path):
    """ffprobe's reading of `path` (format, streams, packets), its first video stream and that stream's packets."""
    probe = json.loads(subprocess.check_output(
        ["ffprobe", "-v", "error", "-show_format", "-show_streams", "-show_packets", "-of", "json", path]))
    video = next(s for s in probe["streams"] if s["codec_type"] == "video")
    return probe, video, [p for p in probe["packets"] if p["stream_index"] == video["index"]]


def frame_pictures(path, video, pts_by_target, box=160):
    """ffmpeg's picture of frames of `video` (ffprobe's stream) in `path`, fitted in box x box: to each target path, the
    frame whose pts (in the stream's time base) it maps to. Returns the fitted size."""
    size = fitted(*display_size(video["width"], video["height"], video.get("sample_aspect_ratio"), None), box)
    matrix, rng = colour_of(video.get("color_space"), video.get("color_range"), video["width"], video["height"])
    chain = filter_chain(size, "10" in video["pix_fmt"], matrix, rng, video.get("color_transfer"), "bt2020")
    for target, pts in pts_by_target.items():
        subprocess.run(ffmpeg_command(path, video["index"], f"select=eq(pts\\,{pts})", chain, target), check=True)
    return size
