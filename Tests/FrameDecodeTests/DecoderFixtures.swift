import FrameDecode
import MP4Box
import MP4BoxTestSupport
import Testing

/// Loads a fixture's video track and sample bytes for decoder tests.
struct DecoderFixture {
    let track: MovieTrack
    let file: MemoryFile

    init(_ name: String) throws {
        try self.init(movie: try Fixtures.bytes(name), name: name)
    }

    /// The video track of the movie `bytes`.
    init(movie bytes: [UInt8], name: String) throws {
        file = MemoryFile(bytes)
        track = try #require(try MovieLocator().locate(in: file).movie.primaryVideoTrack, "\(name) has no video")
    }

    /// The input for sample `index`.
    func input(_ index: Int) throws -> DecoderInput {
        let sample = try track.samples.sample(at: index)
        return DecoderInput(sample: sample, bytes: file.bytes(in: sample.byteRange))
    }

    /// The first sync sample's input.
    func keyframe() throws -> DecoderInput {
        try input(track.samples.sampleIndex(ofSyncSample: 0))
    }

    /// Decodes `inputs` with a fresh decoder (one for keyframes alone with `keyframesOnly`) and flushes; returns every
    /// picture.
    /// Every picture of `inputs`, decoded in order by one new decoder; when the decoder asks to start again
    /// (`restartFromKeyframe`), it is reset and given the inputs from the first again, as `DecodeSession` does.
    func decodeAll(_ inputs: [DecoderInput], keyframesOnly: Bool = false) throws(DecodeError) -> [DecodedFrame] {
        let decoder = try VideoDecoderFactory.makeDecoder(for: track, keyframesOnly: keyframesOnly)
        var frames: [DecodedFrame] = []
        var position = 0
        var restarts = 0
        while position < inputs.count {
            let result = Result { () throws(DecodeError) in try decoder.decode(inputs[position]) }
            if case .failure(let error) = result, error.code == .restartFromKeyframe, restarts < 3 {
                try decoder.reset()
                restarts += 1
                frames = []
                position = 0
                continue
            }
            frames += try result.get()
            position += 1
        }
        return frames + (try decoder.flush())
    }
}
