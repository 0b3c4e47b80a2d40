import FrameDecode

/// Area-average (box filter) resampling of one plane of samples to floating point.
///
/// Each output sample is the mean of the source area it covers: the region is
/// split into equal footprints, and a source sample that a footprint covers in
/// part counts with the covered fraction. Downscaling therefore never aliases
/// (a one-pixel checkerboard halves to flat grey). Along an axis that is
/// enlarged (a footprint narrower than a sample: upscaling, or 4:2:0 chroma
/// brought to an output more than half the picture's size), samples are
/// interpolated linearly instead, as swscale's `area` does there.
///
/// Separable: per output row, the covered source rows are summed with their
/// weights into one row buffer (a loop over contiguous samples that the
/// optimiser vectorises), then each output sample sums its footprint of that
/// buffer. Every source sample is read about once; nothing is allocated per
/// sample. Samples stay in code values (0...2^bitDepth - 1); nothing is rounded.
struct AreaScaler {
    /// The footprints along one axis: output `i` averages source samples `first[i] ..< first[i] + count[i]`.
    struct Axis {
        var first: [Int]
        var count: [Int]
        var weightStart: [Int]
        var weights: [Float]
        /// The source samples any footprint touches.
        var span: Range<Int>

        /// Footprints that split `start ..< start + length` (in source samples) into `outputCount` equal parts,
        /// clipped to the `sourceCount` samples there are.
        init(start: Double, length: Double, outputCount: Int, sourceCount: Int) {
            first = []
            count = []
            weightStart = []
            weights = []
            first.reserveCapacity(outputCount)
            count.reserveCapacity(outputCount)
            weightStart.reserveCapacity(outputCount)
            let step = length / Double(outputCount)
            let limit = Double(sourceCount)
            var lowest = sourceCount
            var highest = 0
            if step < 1 {
                // Enlarging along this axis: a footprint is narrower than a sample, so interpolate linearly
                // between the two samples whose centres surround the footprint's centre.
                for index in 0..<outputCount {
                    let centre = start + (Double(index) + 0.5) * step - 0.5
                    let below = min(max(Int(centre.rounded(.down)), 0), sourceCount - 1)
                    let above = min(below + 1, sourceCount - 1)
                    let fraction = Float(min(max(centre - Double(below), 0), 1))
                    weightStart.append(weights.count)
                    first.append(below)
                    if above == below || fraction == 0 {
                        count.append(1)
                        weights.append(1)
                    } else {
                        count.append(2)
                        weights.append(1 - fraction)
                        weights.append(fraction)
                    }
                    lowest = min(lowest, below)
                    highest = max(highest, above + 1)
                }
                span = lowest..<max(lowest, highest)
                return
            }
            for index in 0..<outputCount {
                let lower = max(0, start + Double(index) * step)
                let upper = min(limit, index == outputCount - 1 ? start + length : start + Double(index + 1) * step)
                weightStart.append(weights.count)
                if upper - lower < 1e-9 {
                    // The footprint lies outside the plane (a shifted chroma edge): take the nearest sample.
                    let nearest = min(max(Int(((lower + upper) / 2).rounded(.down)), 0), sourceCount - 1)
                    first.append(nearest)
                    count.append(1)
                    weights.append(1)
                    lowest = min(lowest, nearest)
                    highest = max(highest, nearest + 1)
                    continue
                }
                var begin = Int(lower.rounded(.down))
                var end = min(Int(upper.rounded(.up)), sourceCount)
                // Drop slivers that are only floating-point noise.
                if Double(begin + 1) - lower < 1e-9 && begin + 1 < end { begin += 1 }
                if upper - Double(end - 1) < 1e-9 && end - 1 > begin { end -= 1 }
                let total = upper - lower
                for sample in begin..<end {
                    let covered = min(upper, Double(sample + 1)) - max(lower, Double(sample))
                    weights.append(Float(max(0, covered) / total))
                }
                first.append(begin)
                count.append(end - begin)
                lowest = min(lowest, begin)
                highest = max(highest, end)
            }
            span = lowest..<max(lowest, highest)
        }
    }

    /// The region `x, y, width, height` (in samples of `plane`, fractions allowed) of `plane`, resampled to `size`.
    /// - Throws: `ThumbnailError` `invalidFrame` when the plane's rows do not fit its data.
    static func scale(_ plane: DecodedFrame.Plane, bytesPerSample: Int, region: CropRectangle,
                      to size: PixelSize) throws(ThumbnailError) -> [Float] {
        guard fits(plane, bytesPerSample: bytesPerSample) else {
            throw ThumbnailError(.invalidFrame, "a \(plane.width)x\(plane.height) plane with \(plane.bytesPerRow) bytes per row "
                                 + "does not fit its \(plane.data.count) bytes")
        }
        let columns = Axis(start: region.x, length: region.width, outputCount: size.width, sourceCount: plane.width)
        let rows = Axis(start: region.y, length: region.height, outputCount: size.height, sourceCount: plane.height)
        let spanStart = columns.span.lowerBound
        let spanCount = columns.span.count
        var output = [Float](repeating: 0, count: size.width * size.height)
        var accumulator = [Float](repeating: 0, count: max(spanCount, 1))
        let rowBytes = plane.bytesPerRow
        plane.data.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            accumulator.withUnsafeMutableBufferPointer { sum in
                output.withUnsafeMutableBufferPointer { out in
                    rows.weights.withUnsafeBufferPointer { rowWeights in
                        columns.weights.withUnsafeBufferPointer { columnWeights in
                            for outputRow in 0..<size.height {
                                // A cancelled task stops here (the renderer throws after the stage): every 64 rows.
                                if outputRow & 63 == 63, Task.isCancelled { break }
                                sum.update(repeating: 0)
                                let weightBase = rows.weightStart[outputRow]
                                for tap in 0..<rows.count[outputRow] {
                                    let weight = rowWeights[weightBase + tap]
                                    let row = base + (rows.first[outputRow] + tap) * rowBytes + spanStart * bytesPerSample
                                    if bytesPerSample == 1 {
                                        accumulate(row.assumingMemoryBound(to: UInt8.self), weight: weight, into: sum, count: spanCount)
                                    } else {
                                        accumulate16(row, weight: weight, into: sum, count: spanCount)
                                    }
                                }
                                let outputBase = outputRow * size.width
                                for column in 0..<size.width {
                                    let offset = columns.first[column] - spanStart
                                    let start = columns.weightStart[column]
                                    var value: Float = 0
                                    for tap in 0..<columns.count[column] {
                                        value += columnWeights[start + tap] * sum[offset + tap]
                                    }
                                    out[outputBase + column] = value
                                }
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// Whether `plane`'s sizes are positive and its data holds every row.
    static func fits(_ plane: DecodedFrame.Plane, bytesPerSample: Int) -> Bool {
        guard plane.width > 0, plane.height > 0, plane.bytesPerRow >= 0 else { return false }
        let (rowBytes, overflow) = plane.width.multipliedReportingOverflow(by: bytesPerSample)
        guard !overflow, plane.bytesPerRow >= rowBytes else { return false }
        let (before, overflow2) = plane.bytesPerRow.multipliedReportingOverflow(by: plane.height - 1)
        guard !overflow2 else { return false }
        let (needed, overflow3) = before.addingReportingOverflow(rowBytes)
        return !overflow3 && needed <= plane.data.count
    }

    /// `sum[i] += weight * row[i]` for 8-bit samples.
    @inline(__always)
    private static func accumulate(_ row: UnsafePointer<UInt8>, weight: Float, into sum: UnsafeMutableBufferPointer<Float>, count: Int) {
        for index in 0..<count {
            sum[index] += weight * Float(row[index])
        }
    }

    /// `sum[i] += weight * row[i]` for 16-bit little-endian samples.
    @inline(__always)
    private static func accumulate16(_ row: UnsafeRawPointer, weight: Float, into sum: UnsafeMutableBufferPointer<Float>, count: Int) {
        for index in 0..<count {
            let sample = UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self))
            sum[index] += weight * Float(sample)
        }
    }
}
