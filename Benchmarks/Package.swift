// swift-tools-version:6.1
import PackageDescription

// The benchmarks live in their own package, so that building and testing the library never builds them.
// Run: cd Benchmarks && swift package benchmark

/// A benchmark executable in `Benchmarks/<name>`: ordo-one's Benchmark and its plugin, the parser and the decoders,
/// and `dependencies`.
func benchmarkTarget(_ name: String, dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "MP4Box", package: "Thumbs"),
            .product(name: "FrameDecode", package: "Thumbs"),
        ] + dependencies,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "ThumbsBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Thumbs", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The decoder libraries called directly, as the baseline our decoders are measured against.
        .systemLibrary(name: "BareOpenH264", path: "Sources/BareOpenH264", pkgConfig: "openh264"),
        .systemLibrary(name: "BareDe265", path: "Sources/BareDe265", pkgConfig: "libde265"),
        benchmarkTarget("DecodeBenchmarks", dependencies: ["BareOpenH264", "BareDe265"]),
        benchmarkTarget("ThumbnailBenchmarks", dependencies: [.product(name: "ByteSources", package: "Thumbs"),
                                                             .product(name: "Thumbs", package: "Thumbs")]),
    ]
)
