/// A bounded cursor over bytes read from a file.
///
/// Every read checks what remains and throws an `MP4Error` with the absolute
/// file offset; `child(byteCount:)` gives a reader that cannot see past the
/// child box. Reads that consume are `read...`, reads that do not are `peek...`.
public struct BoxReader: Sendable {
    /// The bytes, shared (never copied) between a reader and its children.
    public let storage: [UInt8]
    /// The file offset of `storage[0]`.
    public let storageFileOffset: UInt64
    /// The index of the next byte to read.
    public private(set) var position: Int
    /// The index just past the last readable byte.
    public let end: Int
    /// The box path, for error messages.
    public var path: BoxPath
    /// The caps on counts that bytes cannot back.
    public let limits: ParseLimits

    /// A reader over all of `bytes`, which start at `fileOffset` in the file.
    public init(bytes: [UInt8], fileOffset: UInt64 = 0, path: BoxPath = BoxPath(), limits: ParseLimits = ParseLimits()) {
        self.storage = bytes
        self.storageFileOffset = fileOffset
        self.position = 0
        self.end = bytes.count
        self.path = path
        self.limits = limits
    }

    private init(storage: [UInt8], storageFileOffset: UInt64, position: Int, end: Int, path: BoxPath, limits: ParseLimits) {
        self.storage = storage
        self.storageFileOffset = storageFileOffset
        self.position = position
        self.end = end
        self.path = path
        self.limits = limits
    }

    /// Bytes left to read.
    public var remaining: Int { end - position }
    /// Whether every byte has been read.
    public var isAtEnd: Bool { position >= end }
    /// The absolute file offset of the next byte.
    public var fileOffset: UInt64 { storageFileOffset + UInt64(position) }
    /// The absolute file offset just past the last readable byte.
    public var endFileOffset: UInt64 { storageFileOffset + UInt64(end) }

    /// An error at the current position (or `at` an explicit file offset).
    public func error(_ code: MP4Error.Code, _ detail: String, at offset: UInt64? = nil) -> MP4Error {
        MP4Error(code, path: path.description, offset: offset ?? fileOffset, detail)
    }

    /// Throws `needMoreBytes` unless `count` bytes remain.
    public func require(_ count: Int, for what: @autoclosure () -> String) throws(MP4Error) {
        guard count >= 0, count <= remaining else {
            throw error(.needMoreBytes, "\(what()) needs \(count) bytes, \(remaining) remain")
        }
    }

    /// A reader of the next `byteCount` bytes, which this reader then skips.
    public mutating func child(byteCount: Int, path childPath: BoxPath) throws(MP4Error) -> BoxReader {
        try require(byteCount, for: "box \(childPath)")
        let reader = BoxReader(storage: storage, storageFileOffset: storageFileOffset, position: position,
                               end: position + byteCount, path: childPath, limits: limits)
        position += byteCount
        return reader
    }

    /// Skips `count` bytes.
    public mutating func skip(_ count: Int) throws(MP4Error) {
        try require(count, for: "skip")
        position += count
    }

    /// Skips to the end.
    public mutating func skipToEnd() {
        position = end
    }

    /// Reads one byte.
    public mutating func readUInt8() throws(MP4Error) -> UInt8 {
        try require(1, for: "uint8")
        defer { position += 1 }
        return storage[position]
    }

    /// Reads a big-endian 16-bit value.
    public mutating func readUInt16() throws(MP4Error) -> UInt16 {
        try require(2, for: "uint16")
        defer { position += 2 }
        return UInt16(storage[position]) << 8 | UInt16(storage[position + 1])
    }

    /// Reads a big-endian 24-bit value.
    public mutating func readUInt24() throws(MP4Error) -> UInt32 {
        try require(3, for: "uint24")
        defer { position += 3 }
        return UInt32(storage[position]) << 16 | UInt32(storage[position + 1]) << 8 | UInt32(storage[position + 2])
    }

    /// Reads a big-endian 32-bit value.
    public mutating func readUInt32() throws(MP4Error) -> UInt32 {
        try require(4, for: "uint32")
        defer { position += 4 }
        return storage.bigEndianUInt32(at: position)
    }

    /// Reads a big-endian 64-bit value.
    public mutating func readUInt64() throws(MP4Error) -> UInt64 {
        try require(8, for: "uint64")
        defer { position += 8 }
        return UInt64(storage.bigEndianUInt32(at: position)) << 32 | UInt64(storage.bigEndianUInt32(at: position + 4))
    }

    /// Reads a big-endian signed 16-bit value.
    public mutating func readInt16() throws(MP4Error) -> Int16 { Int16(bitPattern: try readUInt16()) }
    /// Reads a big-endian signed 32-bit value.
    public mutating func readInt32() throws(MP4Error) -> Int32 { Int32(bitPattern: try readUInt32()) }
    /// Reads a big-endian signed 64-bit value.
    public mutating func readInt64() throws(MP4Error) -> Int64 { Int64(bitPattern: try readUInt64()) }

    /// Reads a four-character code.
    public mutating func readFourCC() throws(MP4Error) -> FourCC { FourCC(rawValue: try readUInt32()) }

    /// Reads the version byte and 24-bit flags of a full box.
    public mutating func readVersionAndFlags() throws(MP4Error) -> (version: UInt8, flags: UInt32) {
        let version = try readUInt8()
        let flags = try readUInt24()
        return (version, flags)
    }

    /// Reads a 32-bit value for version 0 or a 64-bit value for version 1.
    public mutating func readUIntVersioned(_ version: UInt8) throws(MP4Error) -> UInt64 {
        version == 1 ? try readUInt64() : UInt64(try readUInt32())
    }

    /// Returns the next `count` bytes without copying and skips them.
    public mutating func readSlice(_ count: Int) throws(MP4Error) -> ArraySlice<UInt8> {
        try require(count, for: "\(count) bytes")
        defer { position += count }
        return storage[position..<position + count]
    }

    /// Returns the rest of the bytes without copying.
    public mutating func readRemaining() -> ArraySlice<UInt8> {
        defer { position = end }
        return storage[position..<end]
    }

    /// Reads a NUL-terminated UTF-8 string, or up to the end if there is no NUL.
    public mutating func readNullTerminatedString() -> String {
        var index = position
        while index < end && storage[index] != 0 { index += 1 }
        let text = String(decoding: storage[position..<index], as: UTF8.self)
        position = min(end, index + 1)
        return text
    }

    /// Peeks a big-endian 32-bit value `ahead` bytes from the position.
    public func peekUInt32(ahead: Int = 0) throws(MP4Error) -> UInt32 {
        try require(ahead + 4, for: "peek")
        return storage.bigEndianUInt32(at: position + ahead)
    }

    /// Checks that a table of `count` entries of `entrySize` bytes fits in what remains, with overflow-checked arithmetic.
    public func requireTable(count: UInt64, entrySize: Int, name: String) throws(MP4Error) {
        let (total, overflow) = count.multipliedReportingOverflow(by: UInt64(entrySize))
        guard !overflow, total <= UInt64(remaining) else {
            throw error(.malformed, "entry count \(count) exceeds box size \(remaining) for \(name)")
        }
    }
}

extension Array where Element == UInt8 {
    /// The big-endian 32-bit value at `index`; the caller has checked the bounds.
    @inline(__always)
    func bigEndianUInt32(at index: Int) -> UInt32 {
        UInt32(self[index]) << 24 | UInt32(self[index + 1]) << 16 | UInt32(self[index + 2]) << 8 | UInt32(self[index + 3])
    }
}
