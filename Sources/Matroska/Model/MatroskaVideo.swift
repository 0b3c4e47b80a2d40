/// A video track's picture as its Video element describes it (RFC 9559, section 5.1.4.1.28).
public struct MatroskaVideo: Sendable, Equatable {
    /// Colour as the Colour element gives it; the values are ISO/IEC 23091-4's (as H.273, `colr` nclx).
    public struct Colour: Sendable, Equatable {
        /// MatrixCoefficients (2: unspecified).
        public var matrixCoefficients: UInt64 = 2
        /// TransferCharacteristics (2: unspecified).
        public var transferCharacteristics: UInt64 = 2
        /// Primaries (2: unspecified).
        public var primaries: UInt64 = 2
        /// Range: 0 unspecified, 1 limited (broadcast), 2 full, 3 defined by the matrix and transfer.
        public var range: UInt64 = 0
        /// BitsPerChannel (0: unspecified).
        public var bitsPerChannel: UInt64 = 0
    }

    /// Coded width and height in pixels.
    public var pixelWidth: UInt64
    public var pixelHeight: UInt64
    /// Pixels to crop from each edge before display.
    public var cropTop: UInt64 = 0, cropBottom: UInt64 = 0, cropLeft: UInt64 = 0, cropRight: UInt64 = 0
    /// The display size, in `displayUnit`s (0: pixels, after cropping; 3: a display aspect ratio); nil: as the crop
    /// leaves the pixels.
    public var displayWidth: UInt64?
    public var displayHeight: UInt64?
    /// DisplayUnit: 0 pixels, 1 centimetres, 2 inches, 3 display aspect ratio, 4 unknown.
    public var displayUnit: UInt64 = 0
    /// FlagInterlaced: 0 undetermined, 1 interlaced, 2 progressive.
    public var interlacing: UInt64 = 0
    /// StereoMode (0: mono).
    public var stereoMode: UInt64 = 0
    /// AlphaMode: 1 when BlockAdditions carry an alpha channel.
    public var alphaMode: UInt64 = 0
    /// The Colour element's values, when there is one.
    public var colour: Colour?

    /// Reads a Video element.
    /// - Throws: `MatroskaError` `malformed` for a value that cannot be read, or no pixel size.
    init(_ element: EBMLElement) throws(MatroskaError) {
        var width: UInt64?
        var height: UInt64?
        pixelWidth = 0
        pixelHeight = 0
        for child in try element.children() {
            switch child.id {
            case MatroskaID.pixelWidth: width = try child.unsigned()
            case MatroskaID.pixelHeight: height = try child.unsigned()
            case MatroskaID.pixelCropTop: cropTop = try child.unsigned()
            case MatroskaID.pixelCropBottom: cropBottom = try child.unsigned()
            case MatroskaID.pixelCropLeft: cropLeft = try child.unsigned()
            case MatroskaID.pixelCropRight: cropRight = try child.unsigned()
            case MatroskaID.displayWidth: displayWidth = try child.unsigned()
            case MatroskaID.displayHeight: displayHeight = try child.unsigned()
            case MatroskaID.displayUnit: displayUnit = try child.unsigned()
            case MatroskaID.flagInterlaced: interlacing = try child.unsigned()
            case MatroskaID.stereoMode: stereoMode = try child.unsigned()
            case MatroskaID.alphaMode: alphaMode = try child.unsigned()
            case MatroskaID.colour: colour = try Self.colour(child)
            default: continue
            }
        }
        guard let width, let height, width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
            throw element.error("the Video element has no pixel size between 1 and 65536")
        }
        pixelWidth = width
        pixelHeight = height
    }

    private static func colour(_ element: EBMLElement) throws(MatroskaError) -> Colour {
        var colour = Colour()
        for child in try element.children() {
            switch child.id {
            case MatroskaID.matrixCoefficients: colour.matrixCoefficients = try child.unsigned()
            case MatroskaID.transferCharacteristics: colour.transferCharacteristics = try child.unsigned()
            case MatroskaID.primaries: colour.primaries = try child.unsigned()
            case MatroskaID.range: colour.range = try child.unsigned()
            case MatroskaID.bitsPerChannel: colour.bitsPerChannel = try child.unsigned()
            default: continue
            }
        }
        return colour
    }

    /// The width and height of a pixel, as display size over cropped pixel size, when the Video element gives a
    /// display size in pixels or as an aspect ratio; nil for square pixels or when it gives none.
    public var pixelAspect: (horizontal: UInt64, vertical: UInt64)? {
        guard displayUnit == 0 || displayUnit == 3, let displayWidth, let displayHeight, displayWidth > 0, displayHeight > 0 else {
            return nil
        }
        let width = pixelWidth.saturatingSubtract(cropLeft + cropRight)
        let height = pixelHeight.saturatingSubtract(cropTop + cropBottom)
        guard width > 0, height > 0 else { return nil }
        // (displayWidth / width) / (displayHeight / height), in whole numbers below 2^34 each.
        let horizontal = displayWidth.multipliedReportingOverflow(by: height)
        let vertical = displayHeight.multipliedReportingOverflow(by: width)
        guard !horizontal.overflow, !vertical.overflow, horizontal.partialValue != vertical.partialValue else { return nil }
        let divisor = Self.greatestCommonDivisor(horizontal.partialValue, vertical.partialValue)
        return (horizontal.partialValue / divisor, vertical.partialValue / divisor)
    }

    private static func greatestCommonDivisor(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }
}

extension UInt64 {
    /// `self - other`, or 0 below it.
    func saturatingSubtract(_ other: UInt64) -> UInt64 { self > other ? self - other : 0 }
}
