internal import COpenH264

/// The one owner of an openh264 decoder handle; every call into openh264 goes through here.
///
/// `deinit` uninitialises and destroys the decoder, on every path.
final class OpenH264Handle {
    /// A picture as openh264 hands it over: valid only until the next call on this handle.
    struct Picture {
        var planes: [UnsafePointer<UInt8>]
        var width: Int
        var height: Int
        var strides: (luma: Int, chroma: Int)
        var timestamp: UInt64
    }

    private let decoder: UnsafeMutablePointer<ISVCDecoder?>
    private let vtable: ISVCDecoderVtbl

    /// Creates and initialises a decoder with error concealment off and logging quiet.
    init() throws(DecodeError) {
        var created: UnsafeMutablePointer<ISVCDecoder?>?
        guard WelsCreateDecoder(&created) == 0, let created, let table = created.pointee?.pointee else {
            throw DecodeError(.decoderUnavailable, decoder: "openh264", "could not create a decoder")
        }
        decoder = created
        vtable = table
        var quiet: Int32 = 0  // WELS_LOG_QUIET
        _ = vtable.SetOption?(decoder, DECODER_OPTION_TRACE_LEVEL, &quiet)
        var parameters = SDecodingParam()
        parameters.eEcActiveIdc = ERROR_CON_DISABLE
        parameters.sVideoProperty.size = UInt32(MemoryLayout<SVideoProperty>.size)
        parameters.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_AVC
        guard let initialize = vtable.Initialize, initialize(decoder, &parameters) == 0 else {
            WelsDestroyDecoder(created)
            throw DecodeError(.decoderUnavailable, decoder: "openh264", "could not initialise a decoder")
        }
        _ = vtable.SetOption?(decoder, DECODER_OPTION_TRACE_LEVEL, &quiet)
    }

    deinit {
        _ = vtable.Uninitialize?(decoder)
        WelsDestroyDecoder(decoder)
    }

    /// Decodes one access unit in Annex B form, tagged with `timestamp`; returns the decoding state bits and a picture if one is ready.
    func decode(_ annexB: [UInt8], timestamp: UInt64) -> (state: UInt32, picture: Picture?) {
        var info = SBufferInfo()
        info.uiInBsTimeStamp = timestamp
        var planes: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil]
        let state = annexB.withUnsafeBufferPointer { buffer in
            planes.withUnsafeMutableBufferPointer { planePointers in
                vtable.DecodeFrameNoDelay?(decoder, buffer.baseAddress, Int32(buffer.count), planePointers.baseAddress, &info)
            }
        }
        return (UInt32(state?.rawValue ?? 0xFFFF), Self.picture(info: info, planes: planes))
    }

    /// Takes one picture still held for reordering, if any.
    func flush() -> (state: UInt32, picture: Picture?) {
        var info = SBufferInfo()
        var planes: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil]
        let state = planes.withUnsafeMutableBufferPointer { planePointers in
            vtable.FlushFrame?(decoder, planePointers.baseAddress, &info)
        }
        return (UInt32(state?.rawValue ?? 0xFFFF), Self.picture(info: info, planes: planes))
    }

    /// Tells the decoder the stream has ended, so flushing returns every held picture.
    func signalEndOfStream() {
        var end: Int32 = 1
        _ = vtable.SetOption?(decoder, DECODER_OPTION_END_OF_STREAM, &end)
    }

    /// The number of pictures held for reordering.
    var framesRemaining: Int {
        var count: Int32 = 0
        _ = vtable.GetOption?(decoder, DECODER_OPTION_NUM_OF_FRAMES_REMAINING_IN_BUFFER, &count)
        return Int(count)
    }

    private static func picture(info: SBufferInfo, planes: [UnsafeMutablePointer<UInt8>?]) -> Picture? {
        guard info.iBufferStatus == 1, let y = planes[0], let u = planes[1], let v = planes[2] else { return nil }
        let buffer = info.UsrData.sSystemBuffer
        return Picture(planes: [UnsafePointer(y), UnsafePointer(u), UnsafePointer(v)],
                       width: Int(buffer.iWidth), height: Int(buffer.iHeight),
                       strides: (Int(buffer.iStride.0), Int(buffer.iStride.1)), timestamp: info.uiOutYuvTimeStamp)
    }

    /// Whether a decoding state has the "no parameter sets" bit.
    static func lacksParameterSets(_ state: UInt32) -> Bool { state & UInt32(dsNoParamSets.rawValue) != 0 }
    /// Whether a decoding state reports an error (anything but pending).
    static func isError(_ state: UInt32) -> Bool { state & ~UInt32(dsFramePending.rawValue) != 0 }

    /// The version of the openh264 linked (`WelsGetCodecVersion`), as major.minor.revision.
    static var libraryVersion: String {
        let version = WelsGetCodecVersion()
        return "\(version.uMajor).\(version.uMinor).\(version.uRevision)"
    }
}
