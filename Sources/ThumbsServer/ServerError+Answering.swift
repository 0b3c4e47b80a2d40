import ByteSources
import FrameDecode
import MP4Box
import RangeFetch
import Storyboards
import Thumbs

extension ServerError {
    /// The answer to an error from below: the origin's 404 is ours, its other failures are 502; a file that is not
    /// a movie, has no video, or whose video cannot be decoded here is 415 (naming why); options the library refuses
    /// are 400; anything else is 500.
    init(answering error: any Error) {
        switch error {
        case let error as ServerError:
            self = error
        case let error as FetchError:
            switch error.code {
            case .notFound: self.init(.notFound, "the origin answered 404 for \(URLRedaction.shown(error.url))")
            case .unsupportedURL: self.init(.originNotAllowed, parameter: "url", error.detail)
            default: self.init(.originFailed, "origin: \(error.description)")
            }
        case let error as ReadError:
            self.init(.originFailed, error.description)
        case let error as MP4Error:
            self.init(error.code == .readFailed ? .originFailed : .unsupportedMedia, error.description)
        case let error as ThumbnailError:
            switch error.code {
            case .invalidOption: self.init(.badParameter, error.description)
            case .encodingFailed, .invalidImage, .writeFailed: self.init(.internalError, error.description)
            case .noVideo, .noSamples, .sampleOutOfRange, .noFrame, .invalidFrame, .limitExceeded:
                self.init(.unsupportedMedia, error.description)
            @unknown default: self.init(.internalError, error.description)
            }
        case let error as StoryboardError:
            switch error.code {
            case .invalidOption, .invalidGrid: self.init(.badParameter, error.description)
            case .noSamples, .noDuration, .noKeyframe, .unorderedKeyframes: self.init(.unsupportedMedia, error.description)
            case .notWebVTT, .malformedTiming, .missingImage, .malformedRegion: self.init(.internalError, error.description)
            @unknown default: self.init(.internalError, error.description)
            }
        case let error as DecodeError:
            self.init(.unsupportedMedia, error.description)
        case is CancellationError:
            // The deadline answers with its own error; a cancellation is the client going away (or the server
            // stopping).
            self.init(.clientClosedRequest, "the client closed the connection before the answer")
        default:
            self.init(.internalError, String(describing: error))
        }
    }
}
