import ByteSources

/// One movie of a `ThumbnailBatch`: the input read, and where its thumbnail goes.
public struct BatchItem: Sendable {
    /// The movie (a file, an `HTTPInput` or `S3Input` from `RangeFetch`, your own); an HLS playlist or a DASH manifest
    /// gives its stream's picture.
    public var input: any MovieInput
    /// The thumbnail's path relative to the batch's output directory (`a/b/c.png`); folders are made as needed.
    public var output: String

    /// Makes an item.
    public init(input: any MovieInput, output: String) {
        self.input = input
        self.output = output
    }

    /// A short digest of `text` that is the same in every process (FNV-1a, 64 bits, in hex): what the ledger keeps of an
    /// input's identity (so no credential is written down), and what tells apart two inputs whose outputs would meet.
    public static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
