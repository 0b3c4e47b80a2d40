import MP4Box

extension MovieLocator {
    /// The movie a locator whose first read takes `ends` bytes from each end of the file gives for `bytes`: how
    /// tests check that the movie does not depend on the first read's size.
    public static func movie(of bytes: [UInt8], ends: Int) throws(MP4Error) -> Movie {
        var options = MovieLocator.Options()
        options.headSize = ends
        options.tailSize = UInt64(ends)
        return try MovieLocator(options: options).locate(in: MemoryFile(bytes)).movie
    }
}
