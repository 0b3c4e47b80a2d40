import FrameDecode
import Testing

@Suite struct LengthPrefixedNALUnitsTests {
    @Test(arguments: [1, 2, 4])
    func splitsUnitsForEveryLengthSize(_ lengthSize: Int) throws {
        func prefix(_ length: Int) -> [UInt8] { (0..<lengthSize).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) } }
        let sample = prefix(3) + [0x65, 1, 2] + prefix(0) + prefix(2) + [0x06, 9]
        let ranges = try LengthPrefixedNALUnits.ranges(in: sample, lengthSize: lengthSize)
        #expect(ranges.map { Array(sample[$0]) } == [[0x65, 1, 2], [0x06, 9]])
    }

    @Test func annexBPutsStartCodesAndParameterSetsFirst() throws {
        let sample: [UInt8] = [0, 0, 0, 2, 0x65, 0xAA, 0, 0, 0, 1, 0x06]
        let output = try LengthPrefixedNALUnits.annexB(sample, lengthSize: 4, prefix: [[0x67, 1], [0x68, 2]])
        #expect(output == [0, 0, 0, 1, 0x67, 1, 0, 0, 0, 1, 0x68, 2, 0, 0, 0, 1, 0x65, 0xAA, 0, 0, 0, 1, 0x06])
    }

    @Test func startCodesInsideOneLengthPrefixedUnitSeparateUnits() throws {
        // As Samsung's slow-motion muxer writes: one length (19) before a prefix NAL unit, a 4-byte start code,
        // an SEI, a 3-byte start code and an IDR slice.
        let sample: [UInt8] = [0, 0, 0, 19,
                               0x6E, 0xC0, 0x80, 0x0F,   // prefix NAL unit (type 14)
                               0, 0, 0, 1, 0x06, 0x05,   // start code, SEI
                               0, 0, 1, 0x65, 0x88, 0x84, 0x00, 0x03, 0x01]  // start code, IDR (00 00 03 is not a start code)
        let units = try LengthPrefixedNALUnits.ranges(in: sample, lengthSize: 4).map { Array(sample[$0]) }
        #expect(units == [[0x6E, 0xC0, 0x80, 0x0F], [0x06, 0x05], [0x65, 0x88, 0x84, 0x00, 0x03, 0x01]])
    }

    @Test func h264BaseLayerLeavesOutSVCAndMVCUnits() throws {
        // Prefix NAL unit (14), subset SPS (15) and coded slice extension (20) are not the base layer's.
        let sample: [UInt8] = [0, 0, 0, 2, 0x6E, 1, 0, 0, 0, 2, 0x6F, 2, 0, 0, 0, 2, 0x65, 3, 0, 0, 0, 2, 0x74, 4, 0, 0, 0, 2, 0x41, 5]
        let output = try LengthPrefixedNALUnits.annexB(sample, lengthSize: 4, keeps: LengthPrefixedNALUnits.isH264BaseLayer)
        #expect(output == [0, 0, 0, 1, 0x65, 3, 0, 0, 0, 1, 0x41, 5])
    }

    @Test func lengthBeyondTheSampleThrows() {
        #expect(throws: DecodeError.self) {
            _ = try LengthPrefixedNALUnits.ranges(in: [0, 0, 0, 9, 0x65, 1], lengthSize: 4, sampleIndex: 3)
        }
        do {
            _ = try LengthPrefixedNALUnits.ranges(in: [0, 0, 0, 9, 0x65, 1], lengthSize: 4, sampleIndex: 3)
        } catch {
            #expect(error.code == .malformedSample)
            #expect(error.sampleIndex == 3)
            #expect(error.description.contains("nal length 9 at byte 0 exceeds the 2 bytes left"))
        }
    }

    @Test func lengthFieldCutOffThrows() {
        #expect(throws: DecodeError(.malformedSample, sampleIndex: nil, "nal length field cut off at byte 4 of 6")) {
            _ = try LengthPrefixedNALUnits.ranges(in: [0, 0, 0, 0, 0, 1], lengthSize: 4)
        }
    }

    @Test func lengthSizeThreeIsABadConfiguration() {
        #expect(throws: DecodeError.self) { _ = try LengthPrefixedNALUnits.ranges(in: [0, 0, 1, 5], lengthSize: 3) }
    }

    @Test func emptySampleHasNoUnits() throws {
        #expect(try LengthPrefixedNALUnits.ranges(in: [], lengthSize: 4).isEmpty)
    }
}
