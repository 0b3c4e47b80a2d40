/// Chroma planes of samplings the frame model does not name (4:1:1, 4:1:0, 4:4:0: DV's NTSC frames, old codecs)
/// widened to the luma plane's size, each chroma sample repeated over the luma samples it stands for, so that the
/// frame is 4:4:4.
enum ChromaWidening {
    /// `plane` (samples of `bytesPerSample` bytes) at `width` x `height`.
    static func widened(_ plane: DecodedFrame.Plane, toWidth width: Int, height: Int, bytesPerSample: Int) -> DecodedFrame.Plane {
        guard plane.width > 0, plane.height > 0 else { return plane }
        let rowBytes = width * bytesPerSample
        var data = [UInt8](repeating: 0, count: rowBytes * height)
        for row in 0..<height {
            let sourceRow = min(plane.height - 1, row * plane.height / height) * plane.bytesPerRow
            for column in 0..<width {
                let source = sourceRow + min(plane.width - 1, column * plane.width / width) * bytesPerSample
                for byte in 0..<bytesPerSample { data[row * rowBytes + column * bytesPerSample + byte] = plane.data[source + byte] }
            }
        }
        return DecodedFrame.Plane(width: width, height: height, bytesPerRow: rowBytes, data: data)
    }
}
