"""What a movie's own boxes say, read here independently of our Swift parser, for the few facts where
ffprobe departs from ISO/IEC 14496-12 (see make-expectations.py). Standard library only; the file is
parsed once per MovieBoxes."""
import struct

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts", b"moof", b"traf", b"mvex"}


def boxes(data, start, end):
    """(type, payload start, end) of every box below the containers, in file order, recursively."""
    position = start
    while position + 8 <= end:
        size, kind = struct.unpack(">I4s", data[position:position + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[position + 8:position + 16])[0], 16
        elif size == 0:
            size = end - position
        if size < header:
            return
        box_end = min(position + size, end)
        yield kind, position + header, box_end
        if kind in CONTAINERS:
            yield from boxes(data, position + header, box_end)
        position += size


class MovieBoxes:
    def __init__(self, path):
        self.data = open(path, "rb").read()
        self.found = list(boxes(self.data, 0, len(self.data)))

    def u32(self, at):
        return struct.unpack(">I", self.data[at:at + 4])[0]

    def after_times(self, start):
        """The first field after a full box's version-dependent creation and modification times."""
        return start + (20 if self.data[start] == 1 else 12)

    def trak(self, track_id):
        """{type: (payload start, end)} of the first box of each type inside track `track_id`'s trak, or None."""
        for kind, start, end in self.found:
            if kind != b"trak":
                continue
            inner = {}
            for box, box_start, box_end in boxes(self.data, start, end):
                inner.setdefault(box, (box_start, box_end))
            if b"tkhd" in inner and self.u32(self.after_times(inner[b"tkhd"][0])) == track_id:
                return inner
        return None

    def fragment_samples(self, track_id):
        """(sample flags, composition offset) of each sample of the track's movie fragments (trun, tfhd, trex;
        ISO/IEC 14496-12, 8.8), in order. Version-0 offsets are read signed, as ffmpeg reads them."""
        default_flags = next((self.u32(start + 20) for kind, start, _ in self.found
                              if kind == b"trex" and self.u32(start + 4) == track_id), 0)
        traf_flags, current, samples = default_flags, None, []
        for kind, start, end in self.found:
            if kind == b"tfhd":
                flags = self.u32(start) & 0xFFFFFF
                current = self.u32(start + 4)
                at = start + 8 + (8 if flags & 0x1 else 0) + sum(4 for bit in (0x2, 0x8, 0x10) if flags & bit)
                traf_flags = self.u32(at) if flags & 0x20 else default_flags
            if kind != b"trun" or current != track_id:
                continue
            version, flags, count = self.data[start], self.u32(start) & 0xFFFFFF, self.u32(start + 4)
            at = start + 8 + (4 if flags & 0x1 else 0)
            first_flags = self.u32(at) if flags & 0x4 else None
            at += 4 if flags & 0x4 else 0
            stride = 4 * sum(1 for bit in (0x100, 0x200, 0x400, 0x800) if flags & bit)
            flags_at = 4 * sum(1 for bit in (0x100, 0x200) if flags & bit)
            offset_at = flags_at + (4 if flags & 0x400 else 0)
            for index in range(min(count, (end - at) // stride) if stride else count):
                sample = at + index * stride
                sample_flags = (first_flags if index == 0 and first_flags is not None
                                else self.u32(sample + flags_at) if flags & 0x400 else traf_flags)
                offset = 0
                if flags & 0x800:
                    offset = struct.unpack(">i" if version == 1 else ">I", self.data[sample + offset_at:][:4])[0]
                    if offset >= 1 << 31:
                        offset -= 1 << 32
                samples.append((sample_flags, offset))
        return samples

    def fragment_sample_counts(self, track_id):
        """(samples, sync samples) of the track's fragments, or None without fragments. A sample is a sync
        sample when sample_is_non_sync_sample is 0."""
        samples = self.fragment_samples(track_id)
        if not samples:
            return None
        return len(samples), sum(1 for flags, _ in samples if not flags & 0x10000)

    def ffmpeg_fragment_shift(self, track_id):
        """Ticks ffmpeg 5.1 adds to the pts of a fragmented track with negative composition offsets and no
        edit list.

        ffmpeg raises such a track's pts by its largest negative trun offset (its dts_shift), so that
        pts >= dts; ISO/IEC 14496-12 (and CMAF, whose version-1 truns exist to put the first frame at tfdt)
        present the sample at decode time + offset. In a file whose samples are in moov, ffmpeg moves dts
        down instead and leaves pts where the standard puts them, so nothing needs undoing there.
        """
        trak = self.trak(track_id)
        if trak is not None and b"elst" in trak:
            return 0
        return -min([0] + [offset for _, offset in self.fragment_samples(track_id)])

    def presentation_times(self, track_id):
        """Each moov sample's presentation time on the movie timeline, in media ticks (8.6.1, 8.6.6).

        Decode time (stts) + composition offset (ctts, read signed as ffmpeg does) - the first normal
        edit's media_time + the leading empty edits. None for a track whose samples are not in moov.
        """
        mvhd = next((start for kind, start, _ in self.found if kind == b"mvhd"), None)
        trak = self.trak(track_id)
        if mvhd is None or trak is None or not all(k in trak for k in (b"mdhd", b"stts")):
            return None
        movie_scale = self.u32(self.after_times(mvhd))
        media_scale = self.u32(self.after_times(trak[b"mdhd"][0]))
        dts, times = 0, []
        stts = trak[b"stts"][0]
        for entry in range(self.u32(stts + 4)):
            run, delta = struct.unpack(">II", self.data[stts + 8 + 8 * entry:][:8])
            for _ in range(run):
                times.append(dts)
                dts += delta
        if not times:
            return None
        if b"ctts" in trak:
            ctts, index = trak[b"ctts"][0], 0
            for entry in range(self.u32(ctts + 4)):
                run, offset = struct.unpack(">Ii", self.data[ctts + 8 + 8 * entry:][:8])
                for _ in range(run):
                    if index < len(times):
                        times[index] += offset
                    index += 1
        shift = 0
        if b"elst" in trak:
            elst = trak[b"elst"][0]
            version, at, empty = self.data[elst], elst + 8, 0
            for _ in range(self.u32(elst + 4)):
                if version == 1:
                    duration, media_time = struct.unpack(">Qq", self.data[at:at + 16])
                    at += 20
                else:
                    duration, media_time = struct.unpack(">Ii", self.data[at:at + 8])
                    at += 12
                if media_time == -1:
                    empty += duration * media_scale // movie_scale
                    continue
                shift = empty - media_time
                break
        return [time + shift for time in times]
