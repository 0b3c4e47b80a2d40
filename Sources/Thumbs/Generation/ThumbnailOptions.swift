/// What a thumbnail should look like and which frame is acceptable, after AVAssetImageGenerator.
public struct ThumbnailOptions: Sendable, Hashable {
    /// Which part of the picture is shown.
    public enum ApertureMode: String, Sendable, Hashable, CaseIterable {
        /// The clean aperture (clap), cropped after the SPS crop. The default.
        case cleanAperture
        /// The whole picture after the SPS crop (production aperture).
        case productionAperture
        /// The encoded pixels, SPS crop included, at square pixels.
        case encodedPixels
    }

    /// The box the thumbnail fits in (width, height); 0 for a side leaves it unconstrained. Default 0x0: full size.
    public var maximumSize: PixelSize = PixelSize(width: 0, height: 0)
    /// How the picture is fitted to `maximumSize`.
    public var fitMode: RenderOptions.FitMode = .fit
    /// Whether a picture smaller than the box is scaled up.
    public var allowsUpscaling = false
    /// Which part of the picture `.fill` keeps: the centre (the default), the subject (`--crop smart`), or the
    /// surroundings of a point (`--focus X,Y`).
    public var fillWindow: FillWindow = .centre
    /// Which part of the picture is shown.
    public var apertureMode: ApertureMode = .cleanAperture
    /// Whether the track's matrix turns the picture upright (AVFoundation's preferredTrackTransform). Default on.
    public var appliesPreferredTrackTransform = true
    /// How far before the requested time the frame may be. Default nil: unlimited (the nearest keyframe).
    public var requestedTimeToleranceBefore: Duration?
    /// How far after the requested time the frame may be. Default nil: unlimited (the nearest keyframe).
    public var requestedTimeToleranceAfter: Duration?
    /// The output encoding (default PNG); nil: no encoding, the raw `RGBImage` only.
    public var format: ImageFormat? = .png
    /// Make the thumbnail's placeholder too (`Thumbnail.placeholder`, a ThumbHash of the picture; off by default: it
    /// costs a pass over the picture that a caller without a use for it should not pay).
    public var makesPlaceholder = false
    /// Keep HDR (PQ/HLG) signal values in a 16-bit image instead of tone-mapping to SDR.
    public var keepsHDR = false
    /// Move on to the next keyframe when the frame is near-black or flat (off by default; `ThumbnailTime.best`
    /// chooses by its own score instead).
    public var skipsDarkFrames = false
    /// How many keyframes `ThumbnailTime.best` chooses among, 1...100. Default 10.
    public var bestFrameCandidateCount = 10
    /// Let `representations(at:)` answer first with the file's cover art, without fetching a sample.
    public var allowsCoverArt = true
    /// Ceilings on the samples decoded and the bytes held for one thumbnail.
    public var limits = ThumbnailLimits()

    /// The defaults: full size, nearest keyframe, upright, PNG.
    public init() {}

    /// Tolerance zero on both sides: the exact frame on screen at the time.
    public var isExact: Bool { requestedTimeToleranceBefore == .zero && requestedTimeToleranceAfter == .zero }

    /// Checks what no picture can be made for.
    /// - Throws: `ThumbnailError` `invalidOption` for a negative time tolerance, or a count of best-frame candidates
    ///   outside 1...100.
    public func validate() throws(ThumbnailError) {
        guard (1...BestFramePlan.maximumCount).contains(bestFrameCandidateCount) else {
            throw ThumbnailError(.invalidOption, "the best frame is chosen among 1 to \(BestFramePlan.maximumCount) keyframes, "
                                 + "not \(bestFrameCandidateCount)")
        }
        for (side, tolerance) in [("before", requestedTimeToleranceBefore), ("after", requestedTimeToleranceAfter)]
        where tolerance.map({ $0 < .zero }) ?? false {
            throw ThumbnailError(.invalidOption, "the time tolerance \(side) is negative")
        }
    }

    /// The frame selection these tolerances mean.
    public var selection: FrameSelection {
        FrameSelection(toleranceBefore: requestedTimeToleranceBefore, toleranceAfter: requestedTimeToleranceAfter)
    }
}
