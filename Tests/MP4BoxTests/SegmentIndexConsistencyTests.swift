import Foundation
import MP4Box
import MP4BoxTestSupport
import Testing

/// A segment index whose sizes do not land on the boxes that follow: the locator must give the answer the box walk
/// gives, whatever its first read. HTTPFuzzer found the first case (Fuzz/findings/http/sidx-sizes-off-the-box-
/// boundaries.bin, three segments of moof + mdat each behind its own sidx, the first sidx one byte short of its
/// mdat's end, the third moof's trun claiming 27,960 bytes inside an 880-byte traf): with 1 KiB ends the locator read
/// the first moof the sidx named, resumed one byte before the second sidx, took the garbage there for media cut
/// short and gave a movie of 250 samples; with ends that covered the file it walked every box and refused the trun.
@Suite struct SegmentIndexConsistencyTests {
    @Test(arguments: [1024, 4096, 16 * 1024, 80 * 1024])
    func theFindingIsRefusedWhateverTheFirstRead(_ ends: Int) async throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings/http/sidx-sizes-off-the-box-boundaries.bin")
        let input = [UInt8](try Data(contentsOf: url))
        #expect(input.prefix(3) == [0x40, 0x00, 0x00])  // 1 KiB ends, no script: every answer honest
        let error = try #require(throws: MP4Error.self) { _ = try MovieLocator.movie(of: Array(input[3...]), ends: ends) }
        #expect(error.code == .malformed)
        #expect(error.offset == 42053, "\(error)")
        #expect(error.path.hasSuffix("trun[1]"), "\(error)")
    }

    /// The second case (Fuzz/findings/http/size-zero-box-after-an-indexed-moof.bin, a Shaka segment bent by
    /// HTTPFuzzer): the box after the sidx's first moof has size 0, "to the end of the file", and is a sidx whose
    /// entry count does not fit it. Read as running to the end of the subsegment, that box looked like the
    /// subsegment's media and the locator batched the fragments (a movie of 96 samples with 1 and 4 KiB ends); a walk
    /// of the whole file parses it as a sidx and refuses it. Every first read must give the walk's answer.
    @Test(arguments: [1024, 4096, 16 * 1024])
    func aSizeZeroBoxAfterAnIndexedMoofIsReadToTheEndOfTheFileWhateverTheFirstRead(_ ends: Int) async throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/findings/http/size-zero-box-after-an-indexed-moof.bin")
        let input = [UInt8](try Data(contentsOf: url))
        #expect(input.prefix(3) == [0x40, 0x00, 0x00])  // 1 KiB ends, no script: every answer honest
        let file = Array(input[3...])
        #expect(file.count < 80 * 1024)  // so that 80 KiB ends read it whole, as a walk of every box
        let walked = try #require(throws: MP4Error.self) { _ = try MovieLocator.movie(of: file, ends: 80 * 1024) }
        #expect(walked.path.hasSuffix("sidx"), "\(walked)")
        #expect((4500..<file.count).contains(Int(walked.offset)), "\(walked)")  // the size-0 box starts at 4500
        let error = try #require(throws: MP4Error.self) { _ = try MovieLocator.movie(of: file, ends: ends) }
        #expect(error == walked, "\(error)")
    }
}
