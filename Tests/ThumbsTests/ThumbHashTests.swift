import Foundation
import MP4BoxTestSupport
import Testing
import Thumbs

/// ThumbHash against the reference implementation (Fixtures/thumbhash/make-vectors.sh runs evanw/thumbhash's
/// JavaScript on the same pixels): the same hash bytes, and the same placeholder pixels decoded from them.
@Suite struct ThumbHashTests {
    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        struct Decoded: Decodable, Sendable {
            var width: Int
            var height: Int
            var rgba: String
        }

        var name: String
        var width: Int
        var height: Int
        var hash: String
        var decoded: Decoded

        var testDescription: String { name }
        var rgba: [UInt8] {
            get throws { [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("thumbhash/\(name).rgba"))) }
        }
    }

    static let vectors: [Vector] = {
        let url = Fixtures.directory.appendingPathComponent("thumbhash/vectors.json")
        return (try? JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))) ?? []
    }()

    @Test func everyVectorIsThere() {
        #expect(Self.vectors.count == 10)
    }

    /// The same bytes, but for one thing floating point cannot promise: a term that is zero in exact arithmetic (the
    /// odd luminance terms of `stripes`, whose columns alternate black and white, measured at +-4e-17) is stored as
    /// 15 x 0.5 = 7.5, rounded by the sign of its noise, which the last bit of `cos` decides (V8's in the reference,
    /// glibc's here): that nibble may be 7 or 8. Every other nibble, and the header, must be the reference's.
    @Test(arguments: vectors)
    func hashIsTheReferences(_ vector: Vector) throws {
        let hash = try ThumbHash(rgba: try vector.rgba, width: vector.width, height: vector.height)
        let reference = try ThumbHash(base64: vector.hash)
        #expect(hash.bytes.count == reference.bytes.count)
        let headerCount = reference.hasAlpha ? 6 : 5
        #expect(hash.bytes.prefix(headerCount) == reference.bytes.prefix(headerCount))
        for (index, (ours, theirs)) in zip(hash.bytes, reference.bytes).enumerated().dropFirst(headerCount) {
            for shift in [0, 4] {
                let (a, b) = (Int(ours >> shift & 15), Int(theirs >> shift & 15))
                #expect(a == b || (Set([a, b]) == [7, 8]), "byte \(index), nibble \(shift / 4): \(a), the reference's \(b)")
            }
        }
        if vector.name != "stripes" { #expect(hash == reference) }
    }

    @Test(arguments: vectors)
    func placeholderIsTheReferencesPixelForPixel(_ vector: Vector) throws {
        let image = try ThumbHash(base64: vector.hash).image()
        #expect(image.width == vector.decoded.width && image.height == vector.decoded.height)
        #expect(image.pixelFormat == .rgba8)
        #expect(Data(image.pixels).base64EncodedString() == vector.decoded.rgba)
    }

    @Test(arguments: vectors)
    func aspectRatioAndAlphaFollowThePicture(_ vector: Vector) throws {
        let hash = try ThumbHash(base64: vector.hash)
        let rgba = try vector.rgba
        let transparent = stride(from: 3, to: rgba.count, by: 4).contains { rgba[$0] < 255 }
        #expect(hash.hasAlpha == transparent)
        // 7 (5 with alpha) terms along the longer side: the ratio is within a term of the picture's.
        let ratio = Double(vector.width) / Double(vector.height)
        let terms = transparent ? 5.0 : 7.0
        let tolerance = ratio >= 1 ? ratio * ratio / terms : 1 / terms
        #expect(abs(hash.approximateAspectRatio - ratio) <= tolerance, "\(hash.approximateAspectRatio) for \(ratio)")
    }

    @Test func averageColourOfAFlatPictureIsItsColour() throws {
        let rgba = [UInt8](repeating: 0, count: 40 * 30 * 4).enumerated().map { [200, 100, 50, 255][$0.offset % 4] }
        let average = try ThumbHash(rgba: rgba.map(UInt8.init), width: 40, height: 30).averageColour
        #expect(abs(average.red - 200.0 / 255) < 0.03 && abs(average.green - 100.0 / 255) < 0.03)
        #expect(abs(average.blue - 50.0 / 255) < 0.03 && average.alpha == 1)
    }

    @Test func badInputsAreTypedErrors() {
        let tooLarge = #expect(throws: ThumbnailError.self) { try ThumbHash(rgba: [UInt8](repeating: 0, count: 101 * 4), width: 101, height: 1) }
        #expect(tooLarge?.code == .invalidImage)
        #expect(throws: ThumbnailError.self) { try ThumbHash(rgba: [0, 0, 0], width: 1, height: 1) }
        #expect(throws: ThumbnailError.self) { try ThumbHash(bytes: [1, 2, 3]) }
        // A header that asks for 7 x 7 luminance terms and nothing after it.
        let short = #expect(throws: ThumbnailError.self) { try ThumbHash(bytes: [0, 0, 0, 7, 0]) }
        #expect(short?.detail.contains("bytes") == true)
        #expect(throws: ThumbnailError.self) { try ThumbHash(bytes: [0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 20)) }
        #expect(throws: ThumbnailError.self) { try ThumbHash(base64: "not base64!") }
        #expect(throws: ThumbnailError.self) { try ThumbHash(image: RGBImage(width: 4, height: 4, pixelFormat: .rgb8, pixels: [])) }
    }

    @Test func imageIsAveragedDownToFit100() throws {
        // A 320x180 picture, left half red, right half blue: hashed from 100x56, the placeholder keeps the halves.
        var pixels: [UInt8] = []
        for _ in 0..<180 { for x in 0..<320 { pixels += x < 160 ? [255, 0, 0] : [0, 0, 255] } }
        let hash = try ThumbHash(image: RGBImage(width: 320, height: 180, pixelFormat: .rgb8, pixels: pixels))
        #expect(!hash.hasAlpha)
        #expect(abs(hash.approximateAspectRatio - 7.0 / 4) < 0.001)
        let placeholder = hash.image()
        #expect(placeholder.width == 32 && placeholder.height == 18)
        let left = placeholder.pixel(x: 2, y: 9)
        let right = placeholder.pixel(x: 29, y: 9)
        #expect(left[0] > 180 && left[2] < 90, "left \(left)")
        #expect(right[2] > 180 && right[0] < 90, "right \(right)")
    }
}
