import Foundation

/// A ThumbHash: a placeholder of about 25 bytes that stands for a picture while the picture loads — its average
/// colour, aspect ratio, alpha and a few low-frequency cosine terms of luminance, colour and alpha — in the format of
/// Evan Wallace's reference implementation (github.com/evanw/thumbhash), so the hashes made here decode anywhere that
/// format is read (its JavaScript, Swift, Rust and Java decoders and their ports).
///
/// Layout: three bytes with the DC terms of L (6 bits), P and Q (6 bits each), the L scale (5 bits) and the alpha
/// flag; two bytes with the count of L terms along the shorter side (3 bits), the P and Q scales (6 bits each) and
/// the landscape flag; with alpha, one byte of alpha DC and scale; then the AC terms, 4 bits each, low nibble first:
/// L's, P's, Q's and alpha's, each channel's terms in rows of a triangle (`terms(columns:rows:)`).
public struct ThumbHash: Sendable, Hashable, CustomStringConvertible {
    /// The bytes of the hash.
    public let bytes: [UInt8]

    /// The hash in `bytes`.
    /// - Throws: `ThumbnailError` `invalidImage` when the bytes are not a ThumbHash: shorter than its header says, or
    ///   with no luminance terms along a side.
    public init(bytes: [UInt8]) throws(ThumbnailError) {
        guard bytes.count >= 5 else {
            throw ThumbnailError(.invalidImage, "a thumbhash has at least 5 bytes, not \(bytes.count)")
        }
        let layout = Layout(bytes)
        guard layout.storedTermCount > 0 else {
            throw ThumbnailError(.invalidImage, "the thumbhash header has no luminance terms along its shorter side")
        }
        guard bytes.count >= layout.byteCount else {
            throw ThumbnailError(.invalidImage, "the thumbhash header asks for \(layout.byteCount) bytes, there are \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// The hash in base64 (standard alphabet, padded), as the reference's examples store it.
    /// - Throws: `ThumbnailError` `invalidImage` when the text is not base64 of a ThumbHash.
    public init(base64: String) throws(ThumbnailError) {
        guard let data = Data(base64Encoded: base64) else {
            throw ThumbnailError(.invalidImage, "\"\(base64.prefix(64))\" is not base64")
        }
        try self.init(bytes: [UInt8](data))
    }

    /// The hash in base64 (standard alphabet, padded).
    public var base64: String { Data(bytes).base64EncodedString() }

    /// The base64 form.
    public var description: String { base64 }

    /// Whether the picture had transparent pixels.
    public var hasAlpha: Bool { Layout(bytes).hasAlpha }

    /// The width-to-height ratio of the picture, as far as the hash knows it: the ratio of its luminance term counts
    /// (7:N or N:7, 5:N with alpha), so 1.75 stands for 16:9.
    public var approximateAspectRatio: Double {
        let layout = Layout(bytes)
        return Double(layout.storedColumns) / Double(layout.storedRows)
    }

    /// The average colour, red, green, blue and alpha from 0 to 1 (not premultiplied).
    public var averageColour: (red: Double, green: Double, blue: Double, alpha: Double) {
        let layout = Layout(bytes)
        let (red, green, blue) = Self.rgb(luminance: layout.luminanceDC, yellowBlue: layout.yellowBlueDC, redGreen: layout.redGreenDC)
        return (min(1, max(0, red)), min(1, max(0, green)), min(1, max(0, blue)), layout.alphaDC)
    }

    /// R, G and B of L (the mean of R, G, B), P (yellow minus blue) and Q (red minus green).
    static func rgb(luminance l: Double, yellowBlue p: Double, redGreen q: Double) -> (Double, Double, Double) {
        let blue = l - 2.0 / 3 * p
        let red = (3 * l - blue + q) / 2
        return (red, red - q, blue)
    }

    /// The AC terms of one channel with `columns` x `rows` terms at most, in the order the hash stores them: row by
    /// row, each row as long as the triangle below the anti-diagonal allows, the DC term (0, 0) left out.
    static func terms(columns: Int, rows: Int) -> [(x: Int, y: Int)] {
        var terms: [(x: Int, y: Int)] = []
        for y in 0..<rows {
            var x = y == 0 ? 1 : 0
            while x * rows < columns * (rows - y) {
                terms.append((x, y))
                x += 1
            }
        }
        return terms
    }

    /// The fields of a hash's header.
    struct Layout {
        var luminanceDC: Double
        var yellowBlueDC: Double
        var redGreenDC: Double
        var luminanceScale: Double
        var yellowBlueScale: Double
        var redGreenScale: Double
        var alphaDC: Double
        var alphaScale: Double
        var hasAlpha: Bool
        var isLandscape: Bool
        /// Luminance terms along the shorter side, as stored (the longer side has 7, or 5 with alpha).
        var storedTermCount: Int

        init(_ bytes: [UInt8]) {
            let header24 = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
            let header16 = Int(bytes[3]) | Int(bytes[4]) << 8
            luminanceDC = Double(header24 & 63) / 63
            yellowBlueDC = Double(header24 >> 6 & 63) / 31.5 - 1
            redGreenDC = Double(header24 >> 12 & 63) / 31.5 - 1
            luminanceScale = Double(header24 >> 18 & 31) / 31
            hasAlpha = header24 >> 23 != 0
            storedTermCount = header16 & 7
            yellowBlueScale = Double(header16 >> 3 & 63) / 63
            redGreenScale = Double(header16 >> 9 & 63) / 63
            isLandscape = header16 >> 15 != 0
            let alphaByte = hasAlpha && bytes.count > 5 ? Int(bytes[5]) : 0
            alphaDC = hasAlpha ? Double(alphaByte & 15) / 15 : 1
            alphaScale = Double(alphaByte >> 4) / 15
        }

        /// Luminance terms along the longer side.
        var longSideTermCount: Int { hasAlpha ? 5 : 7 }
        /// Luminance term counts as stored, across and down.
        var storedColumns: Int { isLandscape ? longSideTermCount : storedTermCount }
        var storedRows: Int { isLandscape ? storedTermCount : longSideTermCount }
        /// The luminance grid the terms fill: at least 3 x 3.
        var luminanceColumns: Int { max(3, storedColumns) }
        var luminanceRows: Int { max(3, storedRows) }
        /// Where the AC terms start.
        var termStart: Int { hasAlpha ? 6 : 5 }
        /// The AC terms of L, P, Q and alpha.
        var termCount: Int {
            ThumbHash.terms(columns: luminanceColumns, rows: luminanceRows).count + 2 * ThumbHash.terms(columns: 3, rows: 3).count
                + (hasAlpha ? ThumbHash.terms(columns: 5, rows: 5).count : 0)
        }
        /// The bytes a hash with this header has.
        var byteCount: Int { termStart + (termCount + 1) / 2 }
    }
}
