/// How much of a fragmented segment its first read takes, past its init segment: a segment is its moof (and a styp
/// or sidx before it), then its media, the first keyframe first.
enum SegmentHead {
    /// The moof and the start of the segment's first keyframe (a small rendition's whole keyframe): for the picture
    /// that starts the segment, which then costs one read, or one more for the rest of the keyframe.
    case firstKeyframe
    /// The moof alone, with room to spare: for a picture inside the segment, whose keyframe is read by its range once
    /// the moof says where it is, so the start of the first keyframe would be read for nothing.
    case moof

    /// Bytes of the first read of a segment that lasts `seconds`. A moof grows with its samples: FFmpeg's cut of six
    /// seconds of 1080p30 with AAC has one of 3,460 bytes after 128 of styp (19 bytes a video frame, its audio's
    /// entries included); the largest of the stream fixtures (shaka-player's, livesim2's, Media3's) is 2,024. So
    /// the moof's read is a KiB a second, at least 4 KiB, at most 16 KiB; a longer moof costs one more read.
    func bytes(forSeconds seconds: Double) -> Int {
        let probe = 16 * 1024
        switch self {
        case .firstKeyframe: return probe
        case .moof:
            // In floating point first: a segment a manifest makes last 2^63 s is read as one of 16 s.
            guard seconds.isFinite, seconds > 4 else { return 4 * 1024 }
            return Int(min(16, seconds.rounded(.up))) * 1024
        }
    }
}
