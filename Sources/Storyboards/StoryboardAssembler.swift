import MP4Box
import Thumbs

/// Places tiles in cue order into sheets (or single images) and writes each image when it is finished.
struct Assembler {
    let plan: StoryboardPlan
    let options: StoryboardOptions
    let tileSize: PixelSize
    private(set) var cues: [Storyboard.Cue] = []
    private(set) var sheets: [Storyboard.Sheet] = []
    /// One JPEG per cue placed, when the options ask for a BIF.
    private(set) var bifFrames: [[UInt8]] = []
    private var sheet: SpriteSheet?

    init(plan: StoryboardPlan, options: StoryboardOptions, tileSize: PixelSize) {
        self.plan = plan
        self.options = options
        self.tileSize = tileSize
    }

    /// Cues placed so far.
    var cuesDone: Int { cues.count }

    /// The keyframe the next cue needs, or nil when every cue is placed.
    var neededKeyframeIfAny: Int? { cues.count < plan.cueCount ? plan.cueKeyframes[cues.count] : nil }

    /// The keyframe the next cue needs (past the last one when done): work ahead is measured from it.
    var neededKeyframe: Int { neededKeyframeIfAny ?? plan.keyframes.count }

    /// Places the next cue's tile.
    mutating func place(_ tile: RGBImage, encoded: [UInt8]?, write: (String, [UInt8]) async throws -> Void) async throws {
        let index = cues.count
        let keyframe = plan.keyframes[plan.cueKeyframes[index]]
        let keyframeTime = MediaTime(value: keyframe.presentationTime, timescale: plan.timescale)
        if options.bifFileName != nil { try addBIFFrame(tile, encoded: encoded, sameAsLast: index > 0
                                                        && plan.cueKeyframes[index - 1] == plan.cueKeyframes[index]) }
        if options.singleImages {
            let bytes = try encoded ?? options.format.encode(tile)
            let name = options.sheetFileName(options.firstSheetIndex + sheets.count)
            try await write(name, bytes)
            cues.append(Storyboard.Cue(timeRange: plan.cueStart(index)..<plan.cueEnd(index),
                                       sheet: sheets.count, region: PixelRegion(x: 0, y: 0, width: tile.width, height: tile.height),
                                       keyframeTime: keyframeTime, keyframeSample: keyframe.sample.index))
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
                                   keyframeTime: keyframeTime, keyframeSample: keyframe.sample.index))
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
