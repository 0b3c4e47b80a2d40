// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Thumbs",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "MP4Box", targets: ["MP4Box"]),
        .executable(name: "thumbs", targets: ["thumbs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Pure-Swift ISO-BMFF parser: standard library (and the C library for file reads) only.
        .target(name: "MP4Box"),
        .executableTarget(
            name: "thumbs",
            dependencies: [
                "MP4Box",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test support shared by several test targets: a box builder and faulty byte sources.
        .target(name: "MP4BoxTestSupport", dependencies: ["MP4Box"], path: "Tests/MP4BoxTestSupport"),
        .testTarget(name: "MP4BoxTests", dependencies: ["MP4Box", "MP4BoxTestSupport"]),
        .testTarget(name: "ThumbsCLITests", dependencies: ["MP4BoxTestSupport"]),
    ]
)
