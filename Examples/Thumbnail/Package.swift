// swift-tools-version:6.0
// The README's example as a user has it: a package of its own that depends on this one by path and on the Thumbs
// product alone. scripts/check-example.sh builds and runs it; ExampleQuoteTests checks the README quotes it as it is.
import PackageDescription

let package = Package(
    name: "ThumbnailExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Thumbs", path: "../.."),    // this repository; from yours, e.g. path: "../thumbs"
    ],
    targets: [
        .executableTarget(name: "ThumbnailExample", dependencies: [
            .product(name: "Thumbs", package: "Thumbs"),
        ]),
    ]
)
