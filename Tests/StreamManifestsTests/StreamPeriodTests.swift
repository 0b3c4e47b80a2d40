import StreamManifests
import Testing

/// Which rendition a picture is taken from.
@Suite struct StreamPeriodTests {
    static func rendition(_ width: Int?, _ height: Int?, bandwidth: Int64, kind: StreamRendition.Kind = .video,
                          encrypted: Bool = false, iFrames: Bool = false) -> StreamRendition {
        StreamRendition(kind: kind, bandwidth: bandwidth, width: width, height: height, isEncrypted: encrypted,
                        isIFrameOnly: iFrames, content: .mediaPlaylist(url: "\(width ?? 0)x\(height ?? 0)@\(bandwidth)"))
    }

    static let ladder = StreamPeriod(renditions: [
        rendition(1920, 1080, bandwidth: 6_000_000),
        rendition(640, 360, bandwidth: 800_000),
        rendition(1280, 720, bandwidth: 3_000_000),
        rendition(1280, 720, bandwidth: 2_000_000),
        rendition(3840, 2160, bandwidth: 16_000_000, encrypted: true),
        rendition(nil, nil, bandwidth: 64_000, kind: .audio),
        rendition(320, 180, bandwidth: 90_000, iFrames: true),
    ])

    @Test func theSmallestThatCoversTheBox() {
        #expect(Self.ladder.videoRendition(fitting: 600, 600)?.width == 640)
        #expect(Self.ladder.videoRendition(fitting: 641, 360)?.width == 640)
        #expect(Self.ladder.videoRendition(fitting: 641, 361)?.bandwidth == 2_000_000)
        #expect(Self.ladder.videoRendition(fitting: nil, 1000)?.width == 1920)
        #expect(Self.ladder.videoRendition(fitting: 320, nil, iFrameOnly: true)?.width == 320)
    }

    @Test func elseTheLargestNeverAnEncryptedOne() {
        #expect(Self.ladder.videoRendition(fitting: 4000, 4000)?.width == 1920)
        #expect(Self.ladder.videoRendition(fitting: nil, nil)?.width == 1920)
        #expect(Self.ladder.videoRendition(fitting: 4000, 4000, iFrameOnly: true)?.width == 320)
    }

    @Test func withoutSizesTheHighestBitRate() {
        let period = StreamPeriod(renditions: [
            Self.rendition(nil, nil, bandwidth: 1_000_000, kind: .unknown),
            Self.rendition(nil, nil, bandwidth: 3_000_000, kind: .unknown),
            Self.rendition(nil, nil, bandwidth: 9_000_000, kind: .audio),
        ])
        #expect(period.videoRendition(fitting: 100, 100)?.bandwidth == 3_000_000)
        #expect(StreamPeriod(renditions: [Self.rendition(nil, nil, bandwidth: 1, kind: .audio)]).videoRendition(fitting: 1, 1) == nil)
    }
}
