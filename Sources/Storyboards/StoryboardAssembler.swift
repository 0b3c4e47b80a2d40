import MP4Box
import Thumbs

/// A keyframe's picture at the tile size, ready to place: its picture, its file bytes when it was encoded on its own,
/// and which keyframe it shows.
struct StoryboardTile: Sendable {
    var image: RGBImage
    var encoded: [UInt8]?
    /// The keyframe's presentation time.
    var keyframeTime: MediaTime
    /// The keyframe's sample index in the track (`Storyboard.Cue.keyframeSample`).
    var keyframeSample: Int
}

/// Places tiles in cue order into sheets (or single images) and writes each image when it is finished.
struct Assembler<Plan: StoryboardCuePlan> {
    let plan: Plan
    let options: StoryboardOptions
    let tileSize: PixelSize
    private(set) var cues: [Storyboard.Cue] = []
    private(set) var sheets: [Storyboard.Sheet] = []
    /// One JPEG per cue placed, when the options ask for a BIF.
    private(set) var bifFrames: [[UInt8]] = []
    private var sheet: SpriteSheet?

    /// An assembler of `plan`'s cues into sheets of `tileSize` tiles.
    /// - Throws: `StoryboardError` `invalidOption` when a sheet would be larger than the renderer's pixel bound.
    init(plan: Plan, options: StoryboardOptions, tileSize: PixelSize) throws(StoryboardError) {
        let (columns, rows) = (options.singleImages ? 1 : options.columns, options.singleImages ? 1 : options.rows)
        guard tileSize.width * columns * tileSize.height * rows <= Renderer.maximumOutputPixelCount else {
            throw StoryboardError(.invalidOption, "a sheet of \(columns)x\(rows) tiles of \(tileSize) is larger than "
                                 + "\(Renderer.maximumOutputPixelCount) pixels")
        }
        self.plan = plan
        self.options = options
        self.tileSize = tileSize
    }

    /// Places every cue whose tile is in `tiles`, in order, and drops the tiles no later cue needs.
    mutating func placeReady(from tiles: inout [Int: StoryboardTile], write: (String, [UInt8]) async throws -> Void) async throws {
        while let ordinal = neededKeyframeIfAny, let tile = tiles[ordinal] {
            try await place(tile, write: write)
            if neededKeyframeIfAny != ordinal { tiles[ordinal] = nil }
        }
    }

    /// Cues placed so far.
    var cuesDone: Int { cues.count }

    /// The keyframe the next cue needs, or nil when every cue is placed.
    var neededKeyframeIfAny: Int? { cues.count < plan.cueCount ? plan.cueKeyframes[cues.count] : nil }

    /// The keyframe the next cue needs (past the last one when done): work ahead is measured from it.
    var neededKeyframe: Int { neededKeyframeIfAny ?? plan.keyframeCount }

    /// Places the next cue's tile.
    mutating func place(_ placed: StoryboardTile, write: (String, [UInt8]) async throws -> Void) async throws {
        let index = cues.count
        let tile = placed.image
        let encoded = placed.encoded
        let keyframeTime = placed.keyframeTime
        if options.bifFileName != nil { try addBIFFrame(tile, encoded: encoded, sameAsLast: index > 0
                                                        && plan.cueKeyframes[index - 1] == plan.cueKeyframes[index]) }
        if options.singleImages {
            let bytes = try encoded ?? options.format.encode(tile)
            let name = options.sheetFileName(options.firstSheetIndex + sheets.count)
            try await write(name, bytes)
            cues.append(Storyboard.Cue(timeRange: plan.cueStart(index)..<plan.cueEnd(index),
                                       sheet: sheets.count, region: PixelRegion(x: 0, y: 0, width: tile.width, height: tile.height),
                                       keyframeTime: keyframeTime, keyframeSample: placed.keyframeSample))
            sheets.append(Storyboard.Sheet(fileName: name, width: tile.width, height: tile.height, tileCount: 1,
                                           byteCount: bytes.count))
            return
        }
        if let current = sheet, current.isFull
            || (options.maximumSheetBytes.map { current.tileCount > 0 && current.estimatedBytes + (encoded?.count ?? 0) > $0 } ?? false) {
            try await finish(write: write)
        }
        var current = sheet ?? SpriteSheet(tileSize: tileSize, columns: options.columns, rows: options.rows)
        guard let region = current.place(tile, encodedBytes: encoded?.count ?? 0) else {
            throw StoryboardError(.invalidGrid, "a new sheet of \(options.columns)x\(options.rows) tiles has no room for a tile")
        }
        sheet = current
        cues.append(Storyboard.Cue(timeRange: plan.cueStart(index)..<plan.cueEnd(index),
                                   sheet: sheets.count, region: region,
                                   keyframeTime: keyframeTime, keyframeSample: placed.keyframeSample))
    }

    /// Adds the cue's BIF image: the tile's own JPEG when it has one, the previous cue's when they show one keyframe.
    private mutating func addBIFFrame(_ tile: RGBImage, encoded: [UInt8]?, sameAsLast: Bool) throws(ThumbnailError) {
        if sameAsLast, let last = bifFrames.last {
            bifFrames.append(last)
        } else if case .jpeg = options.format, let encoded {
            bifFrames.append(encoded)
        } else if case .jpeg(let quality) = options.format {
            bifFrames.append(try ImageFormat.jpeg(quality: quality).encode(tile))
        } else {
            bifFrames.append(try ImageFormat.jpeg(quality: 75).encode(tile))
        }
    }

    /// Writes Roku's BIF of the cues placed, when the options ask for one.
    func writeBIF(interval: Duration, write: (String, [UInt8]) async throws -> Void) async throws {
        guard let name = options.bifFileName else { return }
        try await write(name, try BIFWriter.write(frames: bifFrames, interval: interval))
    }

    /// The storyboard of the cues and sheets placed.
    func storyboard(duration: Duration, interval: Duration, keyframeCount: Int, keyframeBytes: UInt64) -> Storyboard {
        Storyboard(duration: duration, interval: interval, tileSize: tileSize,
                   columns: options.singleImages ? 1 : options.columns, rows: options.singleImages ? 1 : options.rows,
                   singleImages: options.singleImages, sheetTemplate: options.effectiveSheetTemplate,
                   firstSheetIndex: options.firstSheetIndex, format: options.format, cues: cues, sheets: sheets,
                   keyframeCount: keyframeCount, keyframeBytes: keyframeBytes)
    }

    /// Encodes and writes the sheet being filled, if any.
    mutating func finish(write: (String, [UInt8]) async throws -> Void) async throws {
        guard let current = sheet, current.tileCount > 0 else { return }
        sheet = nil
        let image = current.finished()
        let bytes = try options.format.encode(image)
        let name = options.sheetFileName(options.firstSheetIndex + sheets.count)
        try await write(name, bytes)
        sheets.append(Storyboard.Sheet(fileName: name, width: image.width, height: image.height, tileCount: current.tileCount,
                                       byteCount: bytes.count))
    }
}
