import MP4Box

/// Scaled Y'CbCr planes (code values, one sample per output pixel) to an `RGBImage`.
///
/// SDR sources give `.rgb8` R'G'B' by the stream's matrix and range, with no
/// transfer or primaries conversion (BT.601/709 content is shown as is). PQ
/// and HLG sources are tone-mapped to SDR BT.709 (`ToneMapper`), or, with
/// `keepsHDR`, give `.rgb16` full-range R'G'B' signal values, unconverted.
enum ColourConverter {
    /// Converts `count` pixels; `cb` and `cr` are nil for a monochrome picture (neutral chroma).
    static func image(luma: [Float], cb: [Float]?, cr: [Float]?, size: PixelSize, bitDepth: Int,
                      colour: ColourDescription, keepsHDR: Bool, toneMapping: ToneMapping) -> RGBImage {
        let matrix = YCbCrToRGB(colour: colour, bitDepth: bitDepth)
        let count = size.width * size.height
        let neutral = matrix.isGBR ? luma : [Float](repeating: matrix.chromaOffset, count: count)
        let blue = cb ?? neutral
        let red = cr ?? neutral
        let isHDR = ToneMapper.isHDR(transferCharacteristics: colour.transfer)
        if isHDR && keepsHDR {
            return RGBImage(width: size.width, height: size.height, pixelFormat: .rgb16,
                         pixels: signal16(luma, blue, red, count: count, matrix: matrix))
        }
        if isHDR, let mapper = ToneMapper(transferCharacteristics: colour.transfer, primaries: colour.primaries,
                                          parameters: toneMapping) {
            return RGBImage(width: size.width, height: size.height, pixelFormat: .rgb8,
                         pixels: toneMapped(luma, blue, red, count: count, matrix: matrix, mapper: mapper))
        }
        return RGBImage(width: size.width, height: size.height, pixelFormat: .rgb8,
                     pixels: signal8(luma, blue, red, count: count, matrix: matrix))
    }

    /// R'G'B' as 8-bit values, rounded and clipped.
    static func signal8(_ luma: [Float], _ cb: [Float], _ cr: [Float], count: Int, matrix: YCbCrToRGB) -> [UInt8] {
        pixels(luma, cb, cr, count: count, matrix: matrix, bytesPerPixel: 3) { out, at, r, g, b in
            out[at] = quantise8(r)
            out[at + 1] = quantise8(g)
            out[at + 2] = quantise8(b)
        }
    }

    /// Tone-mapped SDR R'G'B' as 8-bit values.
    static func toneMapped(_ luma: [Float], _ cb: [Float], _ cr: [Float], count: Int, matrix: YCbCrToRGB,
                           mapper: ToneMapper) -> [UInt8] {
        pixels(luma, cb, cr, count: count, matrix: matrix, bytesPerPixel: 3) { out, at, r, g, b in
            let mapped = mapper.map(r, g, b)
            out[at] = quantise8(mapped.red)
            out[at + 1] = quantise8(mapped.green)
            out[at + 2] = quantise8(mapped.blue)
        }
    }

    /// R'G'B' as 16-bit little-endian values, clipped to 0...1.
    static func signal16(_ luma: [Float], _ cb: [Float], _ cr: [Float], count: Int, matrix: YCbCrToRGB) -> [UInt8] {
        pixels(luma, cb, cr, count: count, matrix: matrix, bytesPerPixel: 6) { out, at, r, g, b in
            let red = quantise16(r), green = quantise16(g), blue = quantise16(b)
            out[at] = UInt8(truncatingIfNeeded: red)
            out[at + 1] = UInt8(truncatingIfNeeded: red >> 8)
            out[at + 2] = UInt8(truncatingIfNeeded: green)
            out[at + 3] = UInt8(truncatingIfNeeded: green >> 8)
            out[at + 4] = UInt8(truncatingIfNeeded: blue)
            out[at + 5] = UInt8(truncatingIfNeeded: blue >> 8)
        }
    }

    /// The one conversion loop: each pixel's Y'CbCr through `matrix`, written by `store` as `bytesPerPixel` bytes
    /// from offset `at` of the output.
    @inline(__always)
    private static func pixels(_ luma: [Float], _ cb: [Float], _ cr: [Float], count: Int, matrix: YCbCrToRGB,
                               bytesPerPixel: Int,
                               _ store: (UnsafeMutableBufferPointer<UInt8>, Int, Float, Float, Float) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytesPerPixel * count) { out, initialised in
            luma.withUnsafeBufferPointer { y in
                cb.withUnsafeBufferPointer { u in
                    cr.withUnsafeBufferPointer { v in
                        for index in 0..<count {
                            // A cancelled task stops here, the rest zeros (the renderer throws after the stage).
                            if index & 0xFFFF == 0xFFFF, Task.isCancelled, let base = out.baseAddress {
                                (base + bytesPerPixel * index).initialize(repeating: 0, count: bytesPerPixel * (count - index))
                                break
                            }
                            let (r, g, b) = matrix.convert(y[index], u[index], v[index])
                            store(out, bytesPerPixel * index, r, g, b)
                        }
                    }
                }
            }
            initialised = bytesPerPixel * count
        }
    }

    /// 0...1 to 0...255, rounded to nearest, clipped (NaN gives 0).
    @inline(__always)
    static func quantise8(_ value: Float) -> UInt8 {
        let scaled = value * 255 + 0.5
        guard scaled > 0 else { return 0 }
        return scaled < 255 ? UInt8(scaled) : 255
    }

    /// 0...1 to 0...65535, rounded to nearest, clipped (NaN gives 0).
    @inline(__always)
    static func quantise16(_ value: Float) -> UInt16 {
        let scaled = value * 65535 + 0.5
        guard scaled > 0 else { return 0 }
        return scaled < 65535 ? UInt16(scaled) : 65535
    }
}
