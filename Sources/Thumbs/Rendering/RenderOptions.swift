import MP4Box

/// How a decoded frame becomes a thumbnail: crop, pixel shape, orientation, size, colour.
///
/// `init(track:)` takes the pixel aspect ratio and the orientation from a track;
/// the rest are choices of the caller.
public struct RenderOptions: Sendable, Equatable {
    /// How the picture is fitted to `maximumSize`.
    public enum FitMode: Sendable, Equatable, CaseIterable {
        /// Inside the box, aspect ratio kept; the limiting side gets exactly its bound.
        case fit
        /// Covers the box, aspect ratio kept, then cropped to exactly the box where `fillWindow` says (the centre by
        /// default).
        case fill
        /// Fitted inside the box, then centred on a black canvas of exactly the box's size.
        case pad
        /// Exactly the box; the aspect ratio is not kept.
        case stretch
    }

    /// The box to fit into, in display orientation. A zero side is unconstrained; 0x0 keeps the display size.
    public var maximumSize: PixelSize
    /// How the picture is fitted to `maximumSize`.
    public var fitMode: FitMode
    /// Whether a picture smaller than the box is scaled up. Off by default: thumbnails are never upscaled.
    public var allowsUpscaling: Bool
    /// Which part of the picture `.fill` keeps: the centre, the subject, or a point's surroundings.
    public var fillWindow: FillWindow = .centre
    /// A crop of the decoded picture (for the clean aperture), or nil for the whole picture.
    public var crop: CropRectangle?
    /// The shape of one sample (pasp or SPS VUI): the width is scaled by it, the height kept (`MovieTrack.displaySize`).
    public var pixelAspectRatio: PixelAspectRatio
    /// The track's orientation: mirror horizontally, then rotate clockwise.
    public var orientation: Orientation
    /// Whether `orientation` is applied (`appliesPreferredTrackTransform`). On by default.
    public var appliesOrientation: Bool
    /// For PQ and HLG sources: `.rgb16` output holding the source's R'G'B' signal values (BT.2020,
    /// PQ or HLG encoded, full range) instead of tone-mapped SDR. Ignored for SDR sources.
    public var keepsHDR: Bool
    /// The HDR-to-SDR operator's parameters.
    public var toneMapping: ToneMapping

    /// Options with the given box; everything else at its default.
    public init(maximumSize: PixelSize = PixelSize(width: 0, height: 0), fitMode: FitMode = .fit,
                allowsUpscaling: Bool = false, crop: CropRectangle? = nil,
                pixelAspectRatio: PixelAspectRatio = .square, orientation: Orientation = .identity,
                appliesOrientation: Bool = true, keepsHDR: Bool = false, toneMapping: ToneMapping = ToneMapping()) {
        self.maximumSize = maximumSize
        self.fitMode = fitMode
        self.allowsUpscaling = allowsUpscaling
        self.crop = crop
        self.pixelAspectRatio = pixelAspectRatio
        self.orientation = orientation
        self.appliesOrientation = appliesOrientation
        self.keepsHDR = keepsHDR
        self.toneMapping = toneMapping
    }

    /// Options for pictures of `track`: its pixel aspect ratio and orientation (identity when the matrix is not one of the eight).
    ///
    /// The clean aperture is not applied; set `crop` with `CropRectangle(cleanAperture:pictureWidth:pictureHeight:)` for that.
    public init(track: MovieTrack, maximumSize: PixelSize = PixelSize(width: 0, height: 0), fitMode: FitMode = .fit) {
        let aspect = track.pixelAspectRatio
        self.init(maximumSize: maximumSize, fitMode: fitMode,
                  pixelAspectRatio: PixelAspectRatio(horizontal: aspect.h, vertical: aspect.v),
                  orientation: track.orientation ?? .identity)
    }

    /// The orientation that is applied: `orientation`, or identity when `appliesOrientation` is off.
    public var effectiveOrientation: Orientation { appliesOrientation ? orientation : .identity }
}
