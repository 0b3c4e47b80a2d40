/// Colour primaries, transfer characteristics, matrix coefficients (ISO/IEC 23091-2 code points) and range.
///
/// A track's description comes from two places that may both speak: the `colr`
/// box of its sample entry and the VUI of its sequence parameter set. The box
/// wins wherever it states a value (ISO/IEC 14496-12, 12.1.5: the box overrides
/// the bitstream); the VUI fills in what the box leaves unspecified (code point
/// 2) and the range a QuickTime `nclc` box cannot state.
public struct ColourDescription: Sendable, Equatable {
    /// Colour primaries (1 BT.709, 5/6 BT.601, 9 BT.2020, 2 unspecified).
    public var primaries: Int
    /// Transfer characteristics (1 BT.709, 16 PQ, 18 HLG, 2 unspecified).
    public var transfer: Int
    /// Matrix coefficients (1 BT.709, 5/6 BT.601, 9 BT.2020 NCL, 0 identity/RGB, 2 unspecified).
    public var matrix: Int
    /// Whether samples use the full range (0-255) rather than limited (16-235).
    public var fullRange: Bool

    /// The code point that means "unspecified" for primaries, transfer and matrix.
    public static let unspecifiedCode = 2

    /// A description that states nothing: every code point unspecified, limited range.
    public static let unspecified = ColourDescription(primaries: unspecifiedCode, transfer: unspecifiedCode,
                                                      matrix: unspecifiedCode, fullRange: false)

    /// Makes a description.
    public init(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
    }

    /// This description where it states a code point, `other`'s where it leaves one unspecified; the range is this one's.
    public func filling(from other: ColourDescription?) -> ColourDescription {
        guard let other else { return self }
        func pick(_ mine: Int, _ theirs: Int) -> Int { Self.isUnspecified(mine) ? theirs : mine }
        return ColourDescription(primaries: pick(primaries, other.primaries), transfer: pick(transfer, other.transfer),
                                 matrix: pick(matrix, other.matrix), fullRange: fullRange)
    }

    /// This description with an unspecified matrix replaced by the guess for a picture of `width` x `height`.
    ///
    /// The guess is the one CoreVideo and mpv make: BT.709 (1) from HD up,
    /// that is 1280 or more samples wide or more than 576 rows high, BT.601
    /// (6) below. Unspecified means code point 2 or the reserved 3.
    public func resolvingUnspecifiedMatrix(width: Int, height: Int) -> ColourDescription {
        guard Self.isUnspecified(matrix) else { return self }
        var resolved = self
        resolved.matrix = Self.guessedMatrix(width: width, height: height)
        return resolved
    }

    /// The matrix coefficients to assume for a picture of `width` x `height` that states none.
    public static func guessedMatrix(width: Int, height: Int) -> Int {
        width >= 1280 || height > 576 ? 1 : 6
    }

    /// Whether a code point says nothing: 2 (unspecified) or 3 (reserved).
    static func isUnspecified(_ code: Int) -> Bool {
        code == unspecifiedCode || code == 3
    }
}
