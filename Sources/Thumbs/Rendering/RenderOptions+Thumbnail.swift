import FrameDecode
import MP4Box

extension RenderOptions {
    /// How a frame of `track` is rendered for `options`: the box, the fit, upscaling, the track's transform, HDR, and
    /// the aperture (the clean aperture's crop for `frame`'s size, or square pixels for the encoded ones). The one
    /// place thumbnails and animated previews turn their options into rendering.
    init(track: MovieTrack, frame: DecodedFrame, thumbnailOptions options: ThumbnailOptions) {
        self.init(track: track, maximumSize: options.maximumSize, fitMode: options.fitMode)
        allowsUpscaling = options.allowsUpscaling
        fillWindow = options.fillWindow
        appliesOrientation = options.appliesPreferredTrackTransform
        keepsHDR = options.keepsHDR
        switch options.apertureMode {
        case .cleanAperture:
            if let clap = track.visualEntry?.cleanAperture {
                crop = CropRectangle(cleanAperture: clap, pictureWidth: frame.width, pictureHeight: frame.height)
            }
        case .productionAperture:
            break
        case .encodedPixels:
            pixelAspectRatio = .square
        }
    }
}
