extension MovieTrack {
    /// What the codec configuration's sequence parameter set says about the picture, if it can be read.
    ///
    /// From the first SPS in avcC (avc1/avc3) or hvcC (hvc1/hev1), or the sequence header OBU in av1C (av01), parsed
    /// once with the sample entry. Tracks whose parameter sets are only in band (some avc3/hev1/av01 files) return
    /// nil here, and so do tracks whose SPS cannot be read: the sizes below then come from the sample entry, and why
    /// is in `visualEntry?.sequenceParameters`.
    public var videoParameters: VideoParameters? {
        guard case .success(let parameters) = visualEntry?.sequenceParameters else { return nil }
        return parameters
    }

    /// The coded picture size: from the SPS when readable, else the sample entry's width and height.
    public var codedSize: (width: Int, height: Int)? {
        if let parameters = videoParameters { return (parameters.codedWidth, parameters.codedHeight) }
        guard let entry = visualEntry else { return nil }
        return (Int(entry.width), Int(entry.height))
    }

    /// The picture size after the SPS crop (or the sample entry's size).
    public var croppedSize: (width: Int, height: Int)? {
        if let parameters = videoParameters { return (parameters.width, parameters.height) }
        guard let entry = visualEntry else { return nil }
        return (Int(entry.width), Int(entry.height))
    }

    /// The pixel aspect ratio (horizontal : vertical) from pasp, else the SPS VUI, else 1:1.
    public var pixelAspectRatio: (h: Int, v: Int) {
        if let pasp = visualEntry?.pixelAspectRatio, pasp.hSpacing > 0, pasp.vSpacing > 0 {
            return (Int(pasp.hSpacing), Int(pasp.vSpacing))
        }
        if let sar = videoParameters?.sampleAspectRatio, sar.0 > 0, sar.1 > 0 {
            return sar
        }
        return (1, 1)
    }

    /// The size a viewer sees: cropped, the width scaled by the pixel aspect ratio, then rotated.
    public var displaySize: (width: Int, height: Int)? {
        guard let cropped = croppedSize else { return nil }
        let aspect = pixelAspectRatio
        var width = Self.displayWidth(ofSamples: cropped.width, horizontal: aspect.h, vertical: aspect.v)
        var height = max(cropped.height, 1)
        if orientation?.swapsDimensions == true { swap(&width, &height) }
        return (width, height)
    }

    /// The clean aperture as a viewer sees it (AVFoundation's clean-aperture dimensions, turned like `displaySize`):
    /// clap's width scaled by the pixel aspect ratio and its height, each to the nearest pixel; nil without a clap
    /// box. What a thumbnail shows at full size, where `displaySize` is the whole picture.
    public var cleanApertureDisplaySize: (width: Int, height: Int)? {
        guard let clap = visualEntry?.cleanAperture, clap.width.isFinite, clap.height.isFinite else { return nil }
        let aspect = pixelAspectRatio
        let scale = aspect.h > 0 && aspect.v > 0 ? Double(aspect.h) / Double(aspect.v) : 1
        func pixels(_ value: Double) -> Int { Int(min(max(value.rounded(.toNearestOrAwayFromZero), 1), Double(Int32.max))) }
        var width = pixels(clap.width * scale)
        var height = pixels(clap.height)
        if orientation?.swapsDimensions == true { swap(&width, &height) }
        return (width, height)
    }

    /// The width on screen of `samples` samples of `horizontal`:`vertical` shape: the width times the ratio, to the
    /// nearest whole pixel (half up), at least 1; the height never changes.
    ///
    /// The rule of the track header ffmpeg writes (tkhd width = width x SAR) and of CoreVideo's display size: 640
    /// samples at 44:45 show 626 wide, 256 at 4:3 show 341. A ratio with a zero term counts as square.
    public static func displayWidth(ofSamples samples: Int, horizontal: Int, vertical: Int) -> Int {
        guard horizontal > 0, vertical > 0, horizontal != vertical else { return max(samples, 1) }
        let scaled = (Double(samples) * Double(horizontal) / Double(vertical)).rounded(.toNearestOrAwayFromZero)
        // A hostile ratio (2^32 : 1) cannot trap the conversion; the layout refuses outputs that large.
        return Int(min(max(scaled, 1), Double(Int32.max)))
    }

    /// The colour description: the colr box (nclx/nclc) where it states primaries, transfer and matrix, else the
    /// bitstream's (SPS VUI, AV1 sequence header); the range from the bitstream whenever it states one.
    ///
    /// The box wins for the code points (ISO/IEC 14496-12, 12.1.5), and the bitstream fills what the box leaves
    /// unspecified. The range follows the bitstream where the two disagree, as ffmpeg, mpv and browsers do: a
    /// camera that marks full range in the VUI and limited range in an nclx box writes full-range samples, and
    /// converting them as limited clips the shadows and highlights. The box's range counts only when the bitstream
    /// states none (no video signal type in the VUI, or parameter sets only in band); an nclc box (QuickTime) has
    /// no range flag. Nil when neither says anything.
    public var colour: ColourDescription? {
        let stream = videoParameters?.colour
        guard let colr = visualEntry?.colourInformation, let primaries = colr.colourPrimaries,
              let transfer = colr.transferCharacteristics, let matrix = colr.matrixCoefficients else {
            return stream
        }
        let box = ColourDescription(primaries: Int(primaries), transfer: Int(transfer), matrix: Int(matrix),
                                    fullRange: stream?.fullRange ?? colr.fullRange ?? false)
        return box.filling(from: stream)
    }

    /// The NAL unit length size from avcC or hvcC.
    public var nalUnitLengthSize: Int? {
        visualEntry?.avcConfiguration?.nalUnitLengthSize ?? visualEntry?.hevcConfiguration?.nalUnitLengthSize
    }
}
