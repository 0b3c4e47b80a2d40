import MP4Box

extension RGBImage {
    /// The image as `orientation` shows it: mirrored left-right first (when `mirrored`), then turned clockwise.
    ///
    /// A pixel at (x, y) of this `width` x `height` image moves to (a·x + c·y + tx, b·x + d·y + ty)
    /// with (a, b, c, d) = `orientation.linear` and the translation that keeps it inside the picture.
    public func oriented(by orientation: Orientation) -> RGBImage {
        guard orientation != .identity, isWellFormed else { return self }
        let (a, b, c, d) = orientation.linear
        let outputWidth = orientation.swapsDimensions ? height : width
        let outputHeight = orientation.swapsDimensions ? width : height
        // Translation: the corner images of (0,0) and (w-1,h-1) span 0 ..< output size.
        let tx = -min(0, a * (width - 1)) - min(0, c * (height - 1))
        let ty = -min(0, b * (width - 1)) - min(0, d * (height - 1))
        let pixelBytes = pixelFormat.bytesPerPixel
        let outputRowBytes = outputWidth * pixelBytes
        // Byte offset in the output of source pixel (x, y): start + x·stepX + y·stepY.
        let stepX = (b * outputWidth + a) * pixelBytes
        let stepY = (d * outputWidth + c) * pixelBytes
        let start = (ty * outputWidth + tx) * pixelBytes
        let result = [UInt8](unsafeUninitializedCapacity: outputRowBytes * outputHeight) { out, initialised in
            pixels.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    var target = start + y * stepY
                    var from = y * bytesPerRow
                    for _ in 0..<width {
                        for byte in 0..<pixelBytes { out[target + byte] = source[from + byte] }
                        target += stepX
                        from += pixelBytes
                    }
                }
            }
            initialised = outputRowBytes * outputHeight
        }
        return RGBImage(width: outputWidth, height: outputHeight, bytesPerRow: outputRowBytes, pixelFormat: pixelFormat,
                     pixels: result)
    }

    /// The `size` part of the image whose top-left corner is (`x`, `y`), clamped to the image.
    public func cropped(x: Int, y: Int, size: PixelSize) -> RGBImage {
        let (left, top) = (min(max(0, x), self.width), min(max(0, y), self.height))
        let width = max(0, min(size.width, self.width - left)), height = max(0, min(size.height, self.height - top))
        let pixelBytes = pixelFormat.bytesPerPixel, rowBytes = width * pixelBytes
        var rows = [UInt8]()
        rows.reserveCapacity(rowBytes * height)
        for row in top..<top + height {
            let start = row * bytesPerRow + left * pixelBytes
            rows.append(contentsOf: pixels[start..<start + rowBytes])
        }
        return RGBImage(width: width, height: height, bytesPerRow: rowBytes, pixelFormat: pixelFormat, pixels: rows)
    }

    /// The image placed with its top-left corner at `origin` on a black canvas of `size` (parts outside are cut).
    public func placed(onBlackCanvasOf size: PixelSize, at origin: (x: Int, y: Int)) -> RGBImage {
        var canvas = RGBImage(black: size.width, height: size.height, pixelFormat: pixelFormat)
        guard isWellFormed, size.width > 0, size.height > 0 else { return canvas }
        let pixelBytes = pixelFormat.bytesPerPixel
        let firstColumn = max(0, -origin.x)
        let lastColumn = min(width, size.width - origin.x)
        guard firstColumn < lastColumn else { return canvas }
        let rowBytes = (lastColumn - firstColumn) * pixelBytes
        for y in max(0, -origin.y)..<max(max(0, -origin.y), min(height, size.height - origin.y)) {
            let from = y * bytesPerRow + firstColumn * pixelBytes
            let to = (y + origin.y) * canvas.bytesPerRow + (firstColumn + origin.x) * pixelBytes
            canvas.pixels[to..<to + rowBytes] = pixels[from..<from + rowBytes]
        }
        return canvas
    }

    /// This `.rgb8` image with `alpha` (one value per pixel, 0 to `maximum`, rounded and clipped to 0...255) as its
    /// fourth channel: `.rgba8`. Any other image, an alpha of another size, or one opaque everywhere (a browser's
    /// recording of an opaque canvas carries such a plane) is returned as it is.
    func withAlpha(_ alpha: [Float], maximum: Float) -> RGBImage {
        let image = packed()
        guard image.pixelFormat == .rgb8, alpha.count == width * height, maximum > 0 else { return self }
        let scale = 255 / maximum
        guard alpha.contains(where: { ($0 * scale).rounded() < 255 }) else { return self }
        var pixels = [UInt8](repeating: 0, count: alpha.count * 4)
        for index in alpha.indices {
            pixels[4 * index] = image.pixels[3 * index]
            pixels[4 * index + 1] = image.pixels[3 * index + 1]
            pixels[4 * index + 2] = image.pixels[3 * index + 2]
            pixels[4 * index + 3] = UInt8(max(0, min(255, (alpha[index] * scale).rounded())))
        }
        return RGBImage(width: width, height: height, pixelFormat: .rgba8, pixels: pixels)
    }
}
