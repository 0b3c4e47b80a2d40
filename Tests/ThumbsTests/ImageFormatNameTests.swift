import Testing
import Thumbs

/// `ImageFormat(named:)`: the one reading of a format's name (the command line's --format and output extension, the
/// storyboard manifest's format), checked by the file signature of what the named format writes.
@Suite struct ImageFormatNameTests {
    /// The first bytes of each format's files: PNG's signature, JPEG's start of image, a RIFF container of WebP.
    static func signature(of file: [UInt8]) -> String? {
        if file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if file.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
        if file.count >= 12, file.starts(with: Array("RIFF".utf8)), Array(file[8..<12]) == Array("WEBP".utf8) { return "webp" }
        return nil
    }

    @Test(arguments: [("png", "png"), ("PNG", "png"), ("jpeg", "jpeg"), ("jpg", "jpeg"), ("JPG", "jpeg"),
                      ("webp", "webp"), ("WebP", "webp")])
    func aNamedFormatWritesThatFormat(_ name: String, expected: String) throws {
        let format = try #require(ImageFormat(named: name, quality: 80))
        let file = try format.encode(ImageCodecTests.ramp(width: 32, height: 18))
        #expect(Self.signature(of: file) == expected)
        #expect(format.name == expected)
    }

    @Test(arguments: ["", "gif", "jpe", "png ", "webp2", "image/png"])
    func anotherNameIsNoFormat(_ name: String) {
        #expect(ImageFormat(named: name, quality: 80) == nil)
    }

    @Test func qualityAndLosslessReachTheFormatsThatTakeThem() {
        #expect(ImageFormat(named: "jpg", quality: 42) == .jpeg(quality: 42))
        #expect(ImageFormat(named: "webp", quality: 42, lossless: true) == .webp(quality: 42, lossless: true))
        #expect(ImageFormat(named: "png", quality: 42, lossless: true) == .png)
    }
}
