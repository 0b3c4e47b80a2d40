extension LinkedLibrary {
    /// The image libraries linked: libpng, libjpeg-turbo (TurboJPEG), libwebp, libavif.
    public static var images: [LinkedLibrary] {
        [LinkedLibrary(name: "libpng", version: LibPNG.libraryVersion),
         LinkedLibrary(name: "libjpeg-turbo", version: TurboJPEG.libraryVersion),
         LinkedLibrary(name: "libwebp", version: LibWebP.libraryVersion),
         LinkedLibrary(name: "libavif", version: LibAvif.libraryVersion)]
    }

    /// Every C library that decodes or encodes pictures here: the decoders, then the image libraries.
    public static var all: [LinkedLibrary] { decoders + images }
}
