import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MP4BoxTestSupport
@testable import Storyboards
import Testing
import Thumbs

/// The HLS image playlist, the DASH thumbnail MPD and Roku's BIF of made storyboards: read back by the rules of
/// RFC 8216 with the image playlist tags, of DASH-IF IOP 6.2.6 and of Roku's BIF, every cue's time leads a player to
/// the picture the WebVTT names.
@Suite struct StoryboardPlaylistTests {
    /// 10 cues of 0.3 s (of h264-bframes' 3 s) in sheets of 4x2: a full sheet of 8, then a last one of 2 tiles (one
    /// row of two).
    static func options(_ change: (inout StoryboardOptions) -> Void = { _ in }) -> StoryboardOptions {
        var options = StoryboardOracles.options(interval: 0.3, columns: 4, rows: 2, tileWidth: 64)
        change(&options)
        return options
    }

    static func storyboard(singleImages: Bool = false, maximumSheetBytes: Int? = nil) async throws -> Storyboard {
        let options = Self.options {
            $0.singleImages = singleImages
            $0.maximumSheetBytes = maximumSheetBytes
        }
        return try await StoryboardOracles.make("h264-bframes", options: options).storyboard
    }

    /// One segment of an image playlist.
    struct HLSSegment {
        var uri: String
        var duration: Double
        var tile: (width: Int, height: Int)?
        var layout: (columns: Int, rows: Int)?
        var tileDuration: Double?
    }

    /// Reads an image media playlist, checking the rules a client checks (RFC 8216 4.1, 4.3; the image tags).
    static func parseHLS(_ text: String) throws -> [HLSSegment] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "#EXTM3U")
        #expect(lines.contains("#EXT-X-IMAGES-ONLY"))
        #expect(lines.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
        #expect(lines.filter { !$0.isEmpty }.last == "#EXT-X-ENDLIST")
        let target = try #require(lines.first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }.flatMap { Int($0.dropFirst(22)) })
        var segments: [HLSSegment] = []
        var pending = HLSSegment(uri: "", duration: -1)
        for line in lines where !line.isEmpty {
            if line.hasPrefix("#EXTINF:") {
                pending.duration = try #require(Double(line.dropFirst(8).split(separator: ",", omittingEmptySubsequences: false)[0]))
            } else if line.hasPrefix("#EXT-X-TILES:") {
                var attributes: [String: String] = [:]
                for pair in line.dropFirst(13).split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    attributes[parts[0]] = parts[1]
                }
                let size = try #require(attributes["RESOLUTION"]?.split(separator: "x").compactMap { Int($0) })
                let grid = try #require(attributes["LAYOUT"]?.split(separator: "x").compactMap { Int($0) })
                pending.tile = (size[0], size[1])
                pending.layout = (grid[0], grid[1])
                let tileDuration = try #require(attributes["DURATION"].flatMap { Double($0) })
                pending.tileDuration = tileDuration
            } else if !line.hasPrefix("#") {
                #expect(pending.duration >= 0, "\(line) has no EXTINF")
                #expect(Int(pending.duration.rounded()) <= target, "EXTINF \(pending.duration) over the target \(target)")
                pending.uri = line
                segments.append(pending)
                pending = HLSSegment(uri: "", duration: -1)
            }
        }
        return segments
    }

    /// The file and region a player shows at `milliseconds`: the segment holding the time, then the tile counted
    /// along the rows at (time - segment start) / tile duration.
    static func tile(at milliseconds: Int64, in segments: [HLSSegment]) -> (file: String, region: PixelRegion?)? {
        var start = 0.0
        let time = Double(milliseconds) / 1000
        for segment in segments {
            defer { start += segment.duration }
            guard time < start + segment.duration - 1e-9 else { continue }
            guard let tile = segment.tile, let layout = segment.layout, let tileDuration = segment.tileDuration else {
                return (segment.uri, nil)
            }
            let index = Int(((time - start) / tileDuration + 1e-9).rounded(.down))
            return (segment.uri, PixelRegion(x: index % layout.columns * tile.width, y: index / layout.columns * tile.height,
                                             width: tile.width, height: tile.height))
        }
        return nil
    }

    @Test func hlsImagePlaylistLeadsEveryCueToItsTile() async throws {
        let storyboard = try await Self.storyboard()
        #expect(storyboard.sheets.count == 2 && storyboard.cues.count == 10)
        let segments = try Self.parseHLS(storyboard.hlsImagePlaylist())
        #expect(segments.map(\.uri) == storyboard.sheets.map(\.fileName))
        #expect(abs(segments.reduce(0) { $0 + $1.duration } - Double(StoryboardOracles.milliseconds(storyboard.duration)) / 1000) < 0.0005)
        for (segment, sheet) in zip(segments, storyboard.sheets) {
            let tile = try #require(segment.tile)
            let layout = try #require(segment.layout)
            #expect(tile == (storyboard.tileSize.width, storyboard.tileSize.height))
            #expect(layout.columns * tile.width == sheet.width && layout.rows * tile.height == sheet.height)
        }
        for cue in storyboard.cues {
            let start = StoryboardOracles.milliseconds(cue.timeRange.lowerBound)
            let end = StoryboardOracles.milliseconds(cue.timeRange.upperBound)
            for time in [start, (start + end) / 2, end - 1] {
                let found = try #require(Self.tile(at: time, in: segments), "no segment at \(time) ms")
                #expect(found.file == storyboard.sheets[cue.sheet].fileName, "at \(time) ms")
                #expect(found.region == cue.region, "at \(time) ms")
            }
        }
    }

    @Test func hlsImagePlaylistOfSingleImagesHasNoTiles() async throws {
        let storyboard = try await Self.storyboard(singleImages: true)
        let segments = try Self.parseHLS(storyboard.hlsImagePlaylist())
        #expect(segments.count == storyboard.cues.count)
        #expect(segments.allSatisfy { $0.tile == nil })
        for cue in storyboard.cues {
            #expect(Self.tile(at: StoryboardOracles.milliseconds(cue.timeRange.lowerBound), in: segments)?.file == storyboard.sheets[cue.sheet].fileName)
        }
    }

    /// The elements of an MPD, each with its attributes, in document order.
    final class ElementCollector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            elements.append((elementName, attributeDict))
        }
    }

    @Test func dashManifestLeadsEveryCueToItsTile() async throws {
        let storyboard = try await Self.storyboard()
        let text = try storyboard.dashManifest()
        let parser = XMLParser(data: Data(text.utf8))
        let collector = ElementCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
        let elements = collector.elements
        func first(_ name: String) throws -> [String: String] { try #require(elements.first { $0.name == name }?.attributes) }
        let mpd = try first("MPD")
        #expect(mpd["xmlns"] == "urn:mpeg:dash:schema:mpd:2011" && mpd["type"] == "static" && mpd["minBufferTime"] != nil)
        #expect(mpd["mediaPresentationDuration"] == "PT3.000S")
        let adaptationSet = try first("AdaptationSet")
        #expect(adaptationSet["contentType"] == "image" && adaptationSet["mimeType"] == "image/jpeg")
        let property = try first("EssentialProperty")
        #expect(property["schemeIdUri"] == "http://dashif.org/thumbnail_tile")
        let grid = try #require(property["value"]?.split(separator: "x").compactMap { Int($0) })
        let representation = try first("Representation")
        let width = try #require(representation["width"].flatMap { Int($0) })
        let height = try #require(representation["height"].flatMap { Int($0) })
        #expect(Int(representation["bandwidth"] ?? "") ?? 0 > 0)
        let template = try first("SegmentTemplate")
        let timescale = try #require(template["timescale"].flatMap { Int64($0) })
        let startNumber = try #require(template["startNumber"].flatMap { Int($0) })
        let media = try #require(template["media"])
        // The timeline: each S covers d, repeated r more times, from t.
        var segments: [(number: Int, start: Int64, duration: Int64)] = []
        for s in elements where s.name == "S" {
            var start = try #require(s.attributes["t"].flatMap { Int64($0) })
            let duration = try #require(s.attributes["d"].flatMap { Int64($0) })
            for _ in 0...(Int(s.attributes["r"] ?? "0") ?? 0) {
                segments.append((startNumber + segments.count, start, duration))
                start += duration
            }
        }
        #expect(segments.map { media.replacing("$Number$", with: String($0.number)) } == storyboard.sheets.map(\.fileName))
        // DASH-IF 6.2.6: the grid divides the Representation's size, and a segment's duration is spread over its tiles.
        let tileWidth = width / grid[0]
        let tileHeight = height / grid[1]
        #expect(tileWidth == storyboard.tileSize.width && tileHeight == storyboard.tileSize.height)
        for cue in storyboard.cues {
            for time in [StoryboardOracles.milliseconds(cue.timeRange.lowerBound), StoryboardOracles.milliseconds(cue.timeRange.upperBound) - 1] {
                let ticks = time * timescale / 1000
                let segment = try #require(segments.first { ticks >= $0.start && ticks < $0.start + $0.duration })
                let index = Int((ticks - segment.start) * Int64(grid[0] * grid[1]) / segment.duration)
                #expect(media.replacing("$Number$", with: String(segment.number)) == storyboard.sheets[cue.sheet].fileName)
                #expect(PixelRegion(x: index % grid[0] * tileWidth, y: index / grid[0] * tileHeight, width: tileWidth,
                                    height: tileHeight) == cue.region, "at \(time) ms")
            }
        }
    }

    @Test func dashRefusesSheetsCutShortByAByteCap() async throws {
        let storyboard = try await Self.storyboard(maximumSheetBytes: 1)
        #expect(storyboard.sheets.dropLast().contains { $0.tileCount < 8 })
        #expect(throws: StoryboardError.self) { _ = try storyboard.dashManifest() }
        // HLS describes each sheet's own grid: still every cue finds its tile.
        let segments = try Self.parseHLS(storyboard.hlsImagePlaylist())
        for cue in storyboard.cues {
            let found = try #require(Self.tile(at: StoryboardOracles.milliseconds(cue.timeRange.lowerBound), in: segments))
            #expect(found.file == storyboard.sheets[cue.sheet].fileName && found.region == cue.region)
        }
    }

    @Test func dashTemplatesEscapeWhatXMLAndDASHReserve() {
        #expect(DASHThumbnailWriter.mediaTemplate("a$b-$index$.jpg") == "a$$b-$Number$.jpg")
        #expect(XMLEscaping.escaped("a&b<\"c\">") == "a&amp;b&lt;&quot;c&quot;&gt;")
    }

    /// Little-endian 32-bit value at `offset`.
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    @Test func bifHoldsEveryCuesPictureAtItsTime() async throws {
        let options = Self.options {
            $0.format = .png            // lossless sheets: the oracle for each BIF JPEG
            $0.bifFileName = "storyboard.bif"
        }
        var files: [String: [UInt8]] = [:]
        var order: [String] = []
        let storyboard = try await StoryboardMaker(source: try FileByteSource(path: Fixtures.path("h264-bframes")), options: options)
            .make { name, bytes in
                files[name] = bytes
                order.append(name)
            }
        #expect(order == storyboard.sheets.map(\.fileName) + ["storyboard.bif"], "the BIF comes after the sheets")
        let bif = try #require(files["storyboard.bif"])
        // Header: magic, version 0, count, framewise separation (ms), 44 reserved zero bytes.
        #expect(Array(bif.prefix(8)) == [0x89, 0x42, 0x49, 0x46, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Self.u32(bif, 8) == 0)
        let count = Int(Self.u32(bif, 12))
        #expect(count == storyboard.cues.count)
        let separation = Int64(Self.u32(bif, 16))
        #expect(separation == StoryboardOracles.milliseconds(storyboard.interval))
        #expect(bif[20..<64].allSatisfy { $0 == 0 })
        // Index: count entries of (timestamp, offset), then 0xFFFFFFFF and the end of the data.
        #expect(Self.u32(bif, 64 + 8 * count) == .max)
        #expect(Int(Self.u32(bif, 64 + 8 * count + 4)) == bif.count)
        for (index, cue) in storyboard.cues.enumerated() {
            let timestamp = Int64(Self.u32(bif, 64 + 8 * index))
            #expect(timestamp * separation == StoryboardOracles.milliseconds(cue.timeRange.lowerBound), "image \(index) is shown from its cue's start")
            let start = Int(Self.u32(bif, 64 + 8 * index + 4))
            let end = Int(Self.u32(bif, 64 + 8 * index + 12))
            #expect(start < end && end <= bif.count)
            let picture = try ImageDecoder().decode(Array(bif[start..<end]))
            #expect(Array(bif[start..<start + 3]) == [0xFF, 0xD8, 0xFF], "Roku's BIF holds JPEGs")
            let sheet = try ImageDecoder().decode(try #require(files[storyboard.sheets[cue.sheet].fileName]))
            let tile = StoryboardOracles.crop(sheet, x: cue.region.x, y: cue.region.y, width: cue.region.width,
                                              height: cue.region.height)
            #expect(picture.width == tile.width && picture.height == tile.height)
            // The sheet's tile, read back from the lossless PNG, encoded as the BIF's JPEG (quality 75): the same bytes.
            #expect(Array(bif[start..<end]) == (try ImageFormat.jpeg(quality: 75).encode(tile)), "cue \(index)")
        }
    }

    @Test func bifRefusesAnIntervalItsHeaderCannotHold() throws {
        #expect(throws: StoryboardError.self) { _ = try BIFWriter.write(frames: [], interval: .zero) }
        #expect(throws: StoryboardError.self) { _ = try BIFWriter.write(frames: [], interval: .microseconds(499)) }
        #expect(throws: StoryboardError.self) { _ = try BIFWriter.write(frames: [], interval: .seconds(1e20)) }  // no trap
        #expect(throws: StoryboardError.self) { _ = try BIFWriter.write(frames: [], interval: .milliseconds(1 << 32)) }
        #expect(try BIFWriter.write(frames: [], interval: .seconds(1)).count == 72)  // header and the end entry
    }
}
