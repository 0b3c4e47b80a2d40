// swift-tools-version:6.1
// Swift 6.2.3 or later: the error codes are `@nonexhaustive` enums (SE-0487).
import PackageDescription

// The products of other packages that our targets use.
let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
let asyncHTTPClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let hummingbirdCore = Target.Dependency.product(name: "HummingbirdCore", package: "hummingbird")
let metrics = Target.Dependency.product(name: "Metrics", package: "swift-metrics")
let prometheus = Target.Dependency.product(name: "Prometheus", package: "swift-prometheus")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let nioConcurrencyHelpers = Target.Dependency.product(name: "NIOConcurrencyHelpers", package: "swift-nio")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")

let package = Package(
    name: "Thumbs",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ByteSources", targets: ["ByteSources"]),
        .library(name: "MP4Box", targets: ["MP4Box"]),
        .library(name: "StreamManifests", targets: ["StreamManifests"]),
        .library(name: "TransportStream", targets: ["TransportStream"]),
        .library(name: "Matroska", targets: ["Matroska"]),
        .library(name: "RangeFetch", targets: ["RangeFetch"]),
        .library(name: "FrameDecode", targets: ["FrameDecode"]),
        .library(name: "Thumbs", targets: ["Thumbs"]),
        .library(name: "Storyboards", targets: ["Storyboards"]),
        .library(name: "ThumbsBatch", targets: ["ThumbsBatch"]),
        .library(name: "ThumbsServer", targets: ["ThumbsServer"]),
        .executable(name: "thumbs", targets: ["thumbs"]),
        // For tests and fuzzing (as swift-nio's NIOTestUtils): the fault-injecting server, the scripted transport.
        .library(name: "RangeFetchTestSupport", targets: ["RangeFetchTestSupport"]),
    ],
    // FFmpegDecoders: libavcodec decodes what the default decoders refuse (interlaced H.264, its 4:2:2, 4:4:4 and 10-bit
    // profiles, MPEG-2, MPEG-4 Part 2, H.263, ProRes, VC-1, DV, ...). Off by default: Debian's libavcodec is built with
    // --enable-gpl, so a binary built with it is GPL; the default build links none of it.
    traits: [
        .trait(name: "FFmpegDecoders",
               description: "Decode the codecs and profiles the default decoders refuse with libavcodec (a GPL build on Debian)."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // TLS settings of the HTTP client (certificates trusted besides the system's); AsyncHTTPClient uses it anyway.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The service (ThumbsServer): Hummingbird 2 without its swift-configuration and full-Foundation traits,
        // service lifecycle (graceful shutdown), metrics in the Prometheus format, HMAC-SHA256 for signed URLs.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // Documentation only: `swift package generate-documentation` (scripts/docs.sh, run by scripts/test.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Work side by side within a bound: the one task-group loop of every module. The standard library only.
        .target(name: "BoundedTasks"),

        // Where bytes come from: the ByteSource protocol, inputs and their identity, fetch statistics, counting, files
        // and memory. The standard library only (with the C library and Dispatch for file reads off the tasks' threads).
        .target(name: "ByteSources", dependencies: ["BoundedTasks"]),

        // Pure-Swift ISO-BMFF parser and the movie model; its locator does no I/O (it says which bytes it needs).
        // The standard library only.
        .target(name: "MP4Box"),

        // HLS playlists and DASH manifests read into one model of periods, renditions and segments, with URL
        // resolution and exact times. The standard library only: the text comes from whoever fetched it.
        .target(name: "StreamManifests", dependencies: ["XMLDocuments"]),

        // A small, bounded XML reader (DASH manifests, object stores' listings). The standard library only.
        .target(name: "XMLDocuments"),

        // The video of MPEG transport streams (HLS's TS segments): packets, program tables, PES packets, access units
        // with unwrapped times. Sans I/O, the standard library only.
        .target(name: "TransportStream"),

        // Matroska and WebM: EBML reading, the index (SeekHead, Info, Tracks, Cues) found by a sans-I/O locator, Clusters
        // read forward into frames. MP4Box for the sans-I/O reading protocol (IndexReader, ByteRequest, HeldBytes) alone.
        .target(name: "Matroska", dependencies: ["MP4Box"]),

        // HTTP range reads: a ByteSource over a URL (HTTPByteSource, HTTPInput, S3Input signed with AWS Signature
        // Version 4 by swift-crypto's HMAC-SHA256), its validators, budgets and retries.
        .target(
            name: "RangeFetch",
            dependencies: [
                "BoundedTasks", "ByteSources", "XMLDocuments", httpTypes, asyncHTTPClient, nioCore, nioHTTP1, nioPosix, logging, crypto,
                nioSSL,
            ]
        ),

        // System libraries: module maps only.
        .systemLibrary(name: "COpenH264", pkgConfig: "openh264", providers: [.apt(["libopenh264-dev"])]),
        .systemLibrary(name: "CDe265", pkgConfig: "libde265", providers: [.apt(["libde265-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // No pkgConfig: libavif's .pc adds -DAVIF_DLL, a flag SwiftPM refuses; the header is in the default path.
        .systemLibrary(name: "CAvif", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CDav1d", pkgConfig: "dav1d", providers: [.apt(["libdav1d-dev"])]),
        .systemLibrary(name: "CVpx", pkgConfig: "vpx", providers: [.apt(["libvpx-dev"])]),
        .systemLibrary(name: "CMalloc"),
        // libavcodec and libavutil (Debian's libavcodec-dev), for the FFmpegDecoders trait only.
        .systemLibrary(name: "CAVCodec", pkgConfig: "libavcodec", providers: [.apt(["libavcodec-dev"])]),

        // Decoders: H.264 through openh264, HEVC through libde265, AV1 through dav1d, VP8 and VP9 through libvpx, Motion JPEG
        // through libjpeg-turbo and PNG frames through libpng.
        .target(name: "FrameDecode", dependencies: ["MP4Box", "COpenH264", "CDe265", "CDav1d", "CVpx", "CTurboJPEG", "CPNG",
                                                   .target(name: "CAVCodec", condition: .when(traits: ["FFmpegDecoders"]))]),

        // The thumbnail API: locating (the one driver of MP4Box's index readers), planning, fetching, rendering,
        // encoding, caches. Byte sources only through ByteSources' protocols (ByteSource, MovieInput): no HTTP here, so
        // a user of local files builds no networking.
        .target(name: "Thumbs", dependencies: ["BoundedTasks", "ByteSources", "MP4Box", "StreamManifests", "TransportStream", "Matroska",
                                              "FrameDecode",
                                              "CPNG", "CTurboJPEG", "CWebP", "CAvif"]),

        // Trick-play storyboards on top of Thumbs: sprite sheets and their WebVTT/JSON tracks, and the reader of
        // such tracks.
        .target(name: "Storyboards", dependencies: ["BoundedTasks", "Thumbs", "ByteSources", "MP4Box", "FrameDecode", "StreamManifests"]),

        // A library's thumbnails (and companions, such as storyboards) written into a directory, a few movies at once
        // within its own bounds, remembered so that a later batch skips what is current.
        .target(name: "ThumbsBatch", dependencies: ["BoundedTasks", "ByteSources", "Thumbs", "Storyboards"]),

        // The HTTP service behind `thumbs serve`: routes, parameters, origin policy, signatures, metrics.
        .target(
            name: "ThumbsServer",
            dependencies: [
                "ByteSources", "MP4Box", "StreamManifests", "TransportStream", "Matroska", "RangeFetch", "FrameDecode", "Thumbs",
                "Storyboards", "CMalloc", hummingbird, hummingbirdCore, nioCore, httpTypes, metrics, prometheus, crypto, logging,
            ]
        ),

        .executableTarget(
            name: "thumbs",
            dependencies: [
                "ByteSources", "MP4Box", "StreamManifests", "RangeFetch", "FrameDecode", "Thumbs", "Storyboards",
                "ThumbsBatch", "ThumbsServer", httpTypes, argumentParser, logging, hummingbird, nioCore,
            ],
            plugins: ["BuildVersion"]
        ),
        // Records the commit `thumbs --version` names (git describe, before each build).
        .plugin(name: "BuildVersion", capability: .buildTool()),

        // Test support shared by several test targets: a box builder, synthetic movies, faulty byte sources, fixtures.
        .target(name: "MP4BoxTestSupport", dependencies: ["ByteSources", "MP4Box"], path: "Tests/MP4BoxTestSupport"),
        .testTarget(name: "BoundedTasksTests", dependencies: ["BoundedTasks"]),
        .testTarget(name: "ByteSourcesTests", dependencies: ["ByteSources"]),
        .testTarget(name: "MP4BoxTests", dependencies: ["MP4Box", "MP4BoxTestSupport"]),
        .testTarget(name: "StreamManifestsTests", dependencies: ["StreamManifests"]),
        .testTarget(name: "MatroskaTests", dependencies: ["Matroska", "MP4Box", "MP4BoxTestSupport"]),
        .testTarget(name: "TransportStreamTests", dependencies: ["TransportStream", "MP4Box", "MP4BoxTestSupport"]),
        .testTarget(name: "FrameDecodeTests", dependencies: ["FrameDecode", "MP4Box", "Matroska", "MP4BoxTestSupport"]),
        .testTarget(name: "ThumbsTests", dependencies: ["Thumbs", "ByteSources", "FrameDecode", "MP4Box", "MP4BoxTestSupport", "TransportStream", "Matroska",
                                                     "StreamManifests"]),
        .testTarget(name: "ThumbsBatchTests", dependencies: ["ThumbsBatch", "Thumbs", "Storyboards", "ByteSources", "MP4Box",
                                                           "MP4BoxTestSupport"]),
        .testTarget(name: "StoryboardsTests", dependencies: [
            "Storyboards", "Thumbs", "ByteSources", "MP4Box", "MP4BoxTestSupport", "StreamManifests",
        ]),
        .target(
            name: "RangeFetchTestSupport",
            dependencies: [
                "ByteSources", "MP4Box", "MP4BoxTestSupport", "RangeFetch", "Thumbs",
                asyncHTTPClient, nioConcurrencyHelpers, nioCore, nioPosix, nioHTTP1,
            ],
            path: "Tests/RangeFetchTestSupport",
            exclude: ["moto-setup.py", "moto-sqs.py"]
        ),
        .testTarget(name: "RangeFetchTests", dependencies: ["RangeFetch", "ByteSources", "MP4Box", "Thumbs", "MP4BoxTestSupport",
                                                          "RangeFetchTestSupport", httpTypes]),
        // Thumbnails, storyboards and the service over HTTP: Thumbs with RangeFetch's sources, as a URL user has them.
        .testTarget(name: "ThumbsHTTPTests", dependencies: ["Thumbs", "Storyboards", "ThumbsBatch", "RangeFetch", "ByteSources", "FrameDecode",
                                                          "MP4Box", "MP4BoxTestSupport", "RangeFetchTestSupport", httpTypes]),
        // The service on a loopback port over a real origin (nginx, the fault-injecting server), asked by AsyncHTTPClient.
        .testTarget(name: "ThumbsServerTests", dependencies: [
            "ThumbsServer", "Thumbs", "Storyboards", "StreamManifests", "TransportStream", "FrameDecode", "ByteSources",
            "RangeFetch", "MP4Box", "MP4BoxTestSupport",
            "RangeFetchTestSupport", asyncHTTPClient, nioCore, logging, serviceLifecycle,
        ]),
        // Runs the `thumbs` binary: depending on the executable target builds it, beside the tests, before they run.
        .testTarget(name: "ThumbsCLITests", dependencies: [
            "thumbs", "Thumbs", "MP4BoxTestSupport", "RangeFetchTestSupport", asyncHTTPClient,
        ]),
    ]
)
