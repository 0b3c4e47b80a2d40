// swift-tools-version:6.0
// libFuzzer targets for MP4Box. Build and run with ./run-fuzzer.sh (see README.md).
import PackageDescription

let package = Package(
    name: "MP4BoxFuzz",
    dependencies: [
        // The root package, named so that the product reference works whatever the checkout folder is called.
        .package(name: "Thumbs", path: ".."),
    ],
    targets: [
        // Whole-file parse (MovieParser.parse) plus the per-track lookups a thumbnailer makes.
        .executableTarget(
            name: "MP4BoxFuzzer",
            dependencies: [.product(name: "MP4Box", package: "Thumbs")]
        ),
        // The H.264 / HEVC SPS bit readers on their own (first byte picks the codec).
        .executableTarget(
            name: "SPSFuzzer",
            dependencies: [.product(name: "MP4Box", package: "Thumbs")]
        ),
    ]
)
