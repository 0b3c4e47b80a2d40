// swift-tools-version:6.0
// libFuzzer targets. Build and run with ./run-fuzzer.sh (see README.md).
import PackageDescription

let package = Package(
    name: "MP4BoxFuzz",
    dependencies: [
        // The root package, named so that the product reference works whatever the checkout folder is called.
        .package(name: "Thumbs", path: ".."),
    ],
    targets: [
        // What the targets share: the lookups a thumbnailer makes, an in-memory source, a blocking async runner.
        .target(name: "FuzzSupport", dependencies: [.product(name: "ByteSources", package: "Thumbs"),
                                                    .product(name: "MP4Box", package: "Thumbs")]),
        // Whole-file parse (MovieParser.parse) plus the per-track lookups a thumbnailer makes.
        .executableTarget(name: "MP4BoxFuzzer", dependencies: ["FuzzSupport", .product(name: "MP4Box", package: "Thumbs")]),
        // The H.264 / HEVC SPS bit readers on their own (first byte picks the codec).
        .executableTarget(name: "SPSFuzzer", dependencies: [.product(name: "MP4Box", package: "Thumbs"),
                                                            .product(name: "FrameDecode", package: "Thumbs")]),
        // MovieLocator with fuzzer-chosen read sizes and a hidden length.
        .executableTarget(name: "LocatorFuzzer", dependencies: ["FuzzSupport", .product(name: "MP4Box", package: "Thumbs"),
                                                                .product(name: "Thumbs", package: "Thumbs")]),
        // FramePlanner: image(at:) semantics without fetching or decoding.
        .executableTarget(name: "PlannerFuzzer", dependencies: ["FuzzSupport", .product(name: "MP4Box", package: "Thumbs"),
                                                                .product(name: "Thumbs", package: "Thumbs")]),
        // The WebVTT thumbnail-track reader.
        .executableTarget(name: "WebVTTFuzzer", dependencies: ["FuzzSupport", .product(name: "Storyboards", package: "Thumbs")]),
        // HLS playlists and DASH manifests: StreamManifest.read and the segment lookups.
        .executableTarget(name: "ManifestFuzzer", dependencies: [.product(name: "StreamManifests", package: "Thumbs")]),
        // MPEG-TS segments: the demuxer in fuzzer-sized pieces, then the movie written from its video and read back.
        .executableTarget(name: "TransportStreamFuzzer", dependencies: ["FuzzSupport", .product(name: "MP4Box", package: "Thumbs"),
                                                                        .product(name: "TransportStream", package: "Thumbs")]),
        // Matroska files: the index located from memory with fuzzer-chosen ends, then the Clusters read in pieces.
        .executableTarget(name: "MatroskaFuzzer", dependencies: [.product(name: "Matroska", package: "Thumbs"),
                                                                 .product(name: "MP4Box", package: "Thumbs")]),
        // HTTPByteSource's response handling over a scripted server, with MovieLocator on top.
        .executableTarget(name: "HTTPFuzzer", dependencies: ["FuzzSupport",
                                                             .product(name: "RangeFetchTestSupport", package: "Thumbs")]),
        // Bytes to a rendered picture: locator, planner, NAL splitting, both decoders, renderer.
        .executableTarget(name: "FrameFuzzer", dependencies: ["FuzzSupport", .product(name: "MP4Box", package: "Thumbs"),
                                                              .product(name: "FrameDecode", package: "Thumbs"),
                                                              .product(name: "Thumbs", package: "Thumbs")]),
    ]
)
