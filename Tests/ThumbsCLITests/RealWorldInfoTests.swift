import Foundation
import MP4BoxTestSupport
import Testing

/// `thumbs info --json` on every file of the real-world and codec corpora ffprobe reads a video stream from: the same
/// codec, profile, Dolby Vision profile, display size, rotation, sample count and keyframe count as ffprobe.
@Suite struct RealWorldInfoTests {
    /// Files with a video stream that ffprobe reads, whose sample data is in the file (not the header-only ones,
    /// where ffprobe counts only the packets it could read).
    static let files = MediaCorpus.allFiles.filter { file in
        guard let video = (try? file.corpus.expectation(file.name))?.video else { return false }
        return video.width > 0 && video.height > 0 && file.corpus.outcomes[file.name]?.error?.code != "sampleOutOfRange"
    }

    /// What `info --json` says of a Matroska or transport stream file: a stream whose one rendition is its picture
    /// track.
    struct FileStreamInfo: Decodable {
        struct Period: Decodable {
            var renditions: [Rendition]
        }
        struct Rendition: Decodable {
            var width: Int?
            var height: Int?
            var codecs: String?
            var segmentFormat: String?
        }
        var format: String
        var periods: [Period]
    }

    /// The CodecIDs of the codecs ffprobe names.
    static let codecIDs = ["h264": "V_MPEG4/ISO/AVC", "hevc": "V_MPEGH/ISO/HEVC", "av1": "V_AV1", "vp8": "V_VP8", "vp9": "V_VP9",
                           "mpeg4": "V_MPEG4/ISO/ASP", "msmpeg4v3": "V_MS/VFW/FOURCC", "mjpeg": "V_MJPEG",
                           "mpeg2video": "V_MPEG2"]

    /// The codings a transport stream's video is named by, by ffprobe's codec name.
    static let transportCodings = ["h264": "h264", "hevc": "hevc", "mpeg2video": "mpeg2", "mpeg4": "mpeg4"]

    @Test(.timeLimit(.minutes(1)), arguments: files)
    func infoAgreesWithFFprobe(_ file: MediaCorpus.File) async throws {
        let (corpus, name) = (file.corpus, file.name)
        let video = try #require(try corpus.expectation(name).video)
        let output = try await InfoCommandTests.run(["info", file.path, "--json"])
        try #require(output.status == 0, "\(name): \(output.stderr)")
        if MediaCorpus.isMatroska(name) {
            // A Matroska file is described as a stream: its picture track's size (ffprobe's coded size) and CodecID.
            let info = try JSONDecoder().decode(FileStreamInfo.self, from: Data(output.stdout.utf8))
            let rendition = try #require(info.periods.first?.renditions.first)
            #expect(info.format == "matroska" && rendition.segmentFormat == "matroska")
            #expect(rendition.width == video.width && rendition.height == video.height,
                    "\(name): \(rendition.width ?? 0)x\(rendition.height ?? 0), ffprobe \(video.width)x\(video.height)")
            // Video for Windows' CodecID may carry any codec (its code is in CodecPrivate).
            #expect(rendition.codecs == Self.codecIDs[video.codecName ?? ""] || rendition.codecs == "V_MS/VFW/FOURCC",
                    "\(name): \(rendition.codecs ?? "none"), ffprobe \(video.codecName ?? "none")")
            return
        }
        if MediaCorpus.isTransportStream(name) {
            // A transport stream file is described as a stream of one segment: its video's coding and first size.
            let info = try JSONDecoder().decode(FileStreamInfo.self, from: Data(output.stdout.utf8))
            let rendition = try #require(info.periods.first?.renditions.first)
            #expect(info.format == "mpeg-ts" && rendition.segmentFormat == "mpeg-ts")
            #expect(rendition.width == video.width && rendition.height == video.height,
                    "\(name): \(rendition.width ?? 0)x\(rendition.height ?? 0), ffprobe \(video.width)x\(video.height)")
            #expect(rendition.codecs == Self.transportCodings[video.codecName ?? ""], "\(name): \(rendition.codecs ?? "none")")
            return
        }
        let info = try JSONDecoder().decode(InfoCommandTests.Info.self, from: Data(output.stdout.utf8))
        let track = try #require(info.tracks.first { UInt32($0.id) == video.trackID },
                                 "\(name): no track \(video.trackID.map(String.init) ?? "?") in \(info.tracks.map(\.id))")
        #expect(track.kind == "video", "\(name): track \(track.id) is \(track.kind)")
        // ffprobe names an encrypted track's original format (frma), as our `codec` does.
        #expect(track.codec == video.codecTag, "\(name): codec \(track.codec ?? "none") (\(track.sampleEntry ?? "none")), ffprobe \(video.codecTag ?? "none")")
        #expect(track.displayWidth == video.displayWidth && track.displayHeight == video.displayHeight,
                "\(name): display \(track.displayWidth ?? 0)x\(track.displayHeight ?? 0), ffprobe \(video.displayWidth ?? 0)x\(video.displayHeight ?? 0)")
        try Self.checkCodecName(track.codecName, of: video, name: name)
        if let why = corpus.outcomes[name]?.ffprobeCountsDiffer {
            // ffprobe counts what it could read (see why); the boxes, read by the script, say what the index holds.
            let samples = try #require(video.fragmentSampleCount, "\(name): \(why), but no fragment counts")
            #expect(track.sampleCount == samples, "\(name): \(track.sampleCount) samples, trun \(samples)")
            #expect(track.syncSampleCount == video.fragmentSyncSampleCount,
                    "\(name): \(track.syncSampleCount) sync samples, trun \(video.fragmentSyncSampleCount ?? -1)")
        } else {
            #expect(track.sampleCount == video.packetCount, "\(name): \(track.sampleCount) samples, ffprobe \(video.packetCount) packets")
            #expect(track.syncSampleCount == video.keyPacketCount,
                    "\(name): \(track.syncSampleCount) sync samples, ffprobe \(video.keyPacketCount) keyframes")
        }
        // ffprobe's rotation is counter-clockwise, ours clockwise; a mirror is a negative determinant.
        let (a, b, c, d) = video.matrixLinearPart
        let mirrored = a * d - b * c < 0
        #expect(track.mirrored == mirrored, "\(name): mirrored \(track.mirrored.map(String.init) ?? "nil"), ffprobe's matrix \(video.matrixLinearPart)")
        if !mirrored {
            let clockwise = (360 - Int((video.rotation ?? 0).rounded()) % 360) % 360
            #expect(track.rotation == clockwise, "\(name): rotation \(track.rotation ?? -1), ffprobe \(video.rotation ?? 0)")
        }
    }

    /// The names our codec descriptions start with (or hold), by ffprobe's codec name.
    static let familyNames = ["h264": "H.264", "hevc": "HEVC", "av1": "AV1", "vp8": "VP8", "vp9": "VP9", "mjpeg": "Motion JPEG",
                              "png": "PNG", "prores": "Apple ProRes", "mpeg4": "MPEG-4 Part 2", "h263": "H.263",
                              "mpeg2video": "MPEG-2 Video", "mpeg1video": "MPEG-1 Video"]

    /// `info`'s codec name holds ffprobe's codec (by its name here), its profile (the codecs whose profiles ffprobe and
    /// the standards name alike: H.264, HEVC but its range extensions, AV1, VP9, MPEG-4 Part 2, MPEG-2, ProRes but
    /// 422's "Standard") and its Dolby Vision profile (with the compatibility ID after a dot for profiles 8 and 10).
    static func checkCodecName(_ codecName: String?, of video: RealWorldExpectation.Video, name: String) throws {
        guard let ffprobeCodec = video.codecName, let family = familyNames[ffprobeCodec] else { return }
        let ours = try #require(codecName, "\(name): no codec name")
        #expect(ours.contains(family), "\(name): \(ours), ffprobe \(ffprobeCodec)")
        if let profile = video.profile?.replacingOccurrences(of: " Profile", with: ""),
           ["h264", "hevc", "av1", "vp9", "mpeg4", "mpeg2video", "prores"].contains(ffprobeCodec),
           !["Rext", "Standard", "unknown"].contains(profile) {
            #expect(ours.lowercased().contains(profile.lowercased()), "\(name): \(ours), ffprobe's profile \(profile)")
        }
        if let dolbyVision = video.dolbyVision {
            let profile = [8, 10].contains(dolbyVision.profile) ? "\(dolbyVision.profile).\(dolbyVision.compatibility ?? 0)" : "\(dolbyVision.profile)"
            #expect(ours.hasPrefix("Dolby Vision profile \(profile) "), "\(name): \(ours), ffprobe's Dolby Vision profile \(profile)")
        } else {
            #expect(!ours.contains("Dolby Vision"), "\(name): \(ours), ffprobe sees no Dolby Vision record")
        }
    }
}
