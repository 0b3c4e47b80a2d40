/// A C library linked into the package, and the version it reports at run time: what a bug report names.
public struct LinkedLibrary: Sendable, Equatable, CustomStringConvertible {
    /// The library's name (`openh264`, `libpng`).
    public let name: String
    /// The version the linked library reports of itself, or what tells it apart where it has no such call.
    public let version: String

    /// A library and its version.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    public var description: String { "\(name) \(version)" }

    /// The decoder libraries linked: openh264 (H.264), libde265 (HEVC), dav1d (AV1), libvpx (VP8, VP9), each as it
    /// reports its version.
    public static var decoders: [LinkedLibrary] {
        [LinkedLibrary(name: "openh264", version: OpenH264Handle.libraryVersion),
         LinkedLibrary(name: "libde265", version: De265Handle.libraryVersion),
         LinkedLibrary(name: "dav1d", version: Dav1dHandle.libraryVersion),
         LinkedLibrary(name: "libvpx", version: VPXHandle.libraryVersion)]
    }
}
