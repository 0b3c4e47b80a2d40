import Thumbs

/// One sheet of tiles being filled, row by row, left to right.
///
/// The canvas is the full grid; `finished()` cuts it to the rows used (and, when the tiles fill less than one
/// row, to the columns used), so the last sheet of a storyboard is no larger than its tiles.
public struct SpriteSheet: Sendable {
    /// The size of every tile.
    public let tileSize: PixelSize
    /// Tiles across.
    public let columns: Int
    /// Tile rows.
    public let rows: Int
    /// Tiles placed so far.
    public private(set) var tileCount = 0
    /// The sum of the tiles' own encoded sizes, when they were given (an estimate of the sheet's size).
    public private(set) var estimatedBytes = 0
    private var canvas: RGBImage

    /// An empty, black sheet of `columns` x `rows` tiles of `tileSize`.
    public init(tileSize: PixelSize, columns: Int, rows: Int) {
        self.tileSize = tileSize
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        canvas = RGBImage(black: tileSize.width * self.columns, height: tileSize.height * self.rows, pixelFormat: .rgb8)
    }

    /// How many tiles the sheet holds.
    public var capacity: Int { columns * rows }

    /// Whether every place is taken.
    public var isFull: Bool { tileCount >= capacity }

    /// Puts `tile` in the next place and returns its region; a tile of another size is cut or left black at the
    /// edges of its place. `encodedBytes` adds to `estimatedBytes`. Returns nil, placing nothing, when the sheet is full.
    public mutating func place(_ tile: RGBImage, encodedBytes: Int = 0) -> PixelRegion? {
        guard !isFull else { return nil }
        let region = PixelRegion(slot: tileCount, columns: columns, tileSize: tileSize)
        let source = tile.pixelFormat == .rgb8 ? tile.packed() : tile
        if source.pixelFormat == .rgb8, source.isWellFormed {
            let rowBytes = min(source.width, tileSize.width) * 3
            for y in 0..<min(source.height, tileSize.height) {
                let from = y * source.bytesPerRow
                let to = (region.y + y) * canvas.bytesPerRow + region.x * 3
                canvas.pixels.replaceSubrange(to..<to + rowBytes, with: source.pixels[from..<from + rowBytes])
            }
        }
        tileCount += 1
        estimatedBytes += encodedBytes
        return region
    }

    /// The size of the finished sheet: the rows used, and all columns unless fewer tiles than one row.
    public var finishedSize: PixelSize {
        let used = max(1, tileCount)
        let usedColumns = min(columns, used)
        let usedRows = (used + columns - 1) / columns
        return PixelSize(width: usedColumns * tileSize.width, height: usedRows * tileSize.height)
    }

    /// The sheet's picture, cut to `finishedSize`.
    public func finished() -> RGBImage {
        let size = finishedSize
        if size.width == canvas.width && size.height == canvas.height { return canvas }
        return canvas.placed(onBlackCanvasOf: size, at: (0, 0))
    }
}
