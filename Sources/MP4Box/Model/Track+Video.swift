extension Track {
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

    /// The size a viewer sees: cropped, stretched to square pixels along the wider axis, then rotated.
    public var displaySize: (width: Int, height: Int)? {
        guard let cropped = croppedSize else { return nil }
        let aspect = pixelAspectRatio
        var width = cropped.width
        var height = cropped.height
        if aspect.h > aspect.v {
            width = Int((Double(width) * Double(aspect.h) / Double(aspect.v)).rounded(.down))
        } else if aspect.v > aspect.h {
            height = Int((Double(height) * Double(aspect.v) / Double(aspect.h)).rounded(.down))
        }
        if orientation?.swapsDimensions == true { swap(&width, &height) }
        return (max(width, 1), max(height, 1))
    }

    /// The colour description: the colr box (nclx/nclc) where it states a value, else the SPS VUI.
    ///
    /// The box wins where both speak (ISO/IEC 14496-12, 12.1.5), the range
    /// included: a camera that marks full range in the VUI and limited range in
    /// an nclx box is converted as limited. An nclc box (QuickTime) has no range
    /// flag, so the VUI's is used. Nil when neither says anything.
    public var colour: ColourDescription? {
        let vui = videoParameters?.colour
        guard let colr = visualEntry?.colourInformation, let primaries = colr.colourPrimaries,
              let transfer = colr.transferCharacteristics, let matrix = colr.matrixCoefficients else {
            return vui
        }
        let box = ColourDescription(primaries: Int(primaries), transfer: Int(transfer), matrix: Int(matrix),
                                    fullRange: colr.fullRange ?? vui?.fullRange ?? false)
        return box.filling(from: vui)
    }

    /// The NAL unit length size from avcC or hvcC.
    public var nalUnitLengthSize: Int? {
        visualEntry?.avcConfiguration?.nalUnitLengthSize ?? visualEntry?.hevcConfiguration?.nalUnitLengthSize
    }
}
