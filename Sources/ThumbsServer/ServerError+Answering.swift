import ByteSources
import FrameDecode
import MP4Box
import RangeFetch
import Storyboards
import StreamManifests
import Thumbs
import TransportStream
import Matroska

/// The one table from every error the layers below throw to the service's answer, for every route.
///
/// Bad media (a file that is not a movie, a malformed movie, playlist, manifest or transport stream, a codec or
/// feature without a decoder here) is 415, `noVideo` where there is no video at all; an input that costs more than one answer may (origin requests or bytes,
/// samples) is 422; the origin's 404 is 404 and its other failures 502; options the library refuses are 400; the
/// service's own failures (an encoder, a decoder that cannot be made) are 500. Each error type's code is mapped by an
/// exhaustive `switch` on its known cases: `ServerErrorTableTests` walks every case of every type (`allCases`), so a
/// code added below that falls through to 500 fails a test.
extension ServerError {
    /// The answer to an error from below.
    init(answering error: any Error) {
        switch error {
        case let error as ServerError:
            self = error
        case let error as FetchError:
            switch error.code {
            case .notFound: self.init(.notFound, "the origin answered 404 for \(URLRedaction.shown(error.url))")
            case .unsupportedURL: self.init(.originNotAllowed, parameter: "url", error.detail)
            default: self.init(Self.code(for: error.code), error.code == .budgetExceeded ? error.description : "origin: \(error.description)")
            }
        case let error as ReadError:
            self.init(Self.code(for: error.code), error.description)
        case let error as MP4Error:
            self.init(Self.code(for: error.code), error.description)
        case let error as ManifestError:
            self.init(Self.code(for: error.code), error.description)
        case let error as TransportStreamError:
            self.init(Self.code(for: error.code), error.description)
        case let error as MatroskaError:
            self.init(Self.code(for: error.code), error.description)
        case let error as DecodeError:
            self.init(Self.code(for: error.code), error.description)
        case let error as ThumbnailError:
            self.init(Self.code(for: error.code), error.description)
        case let error as StoryboardError:
            self.init(Self.code(for: error.code), error.description)
        case is CancellationError:
            // The deadline answers with its own error; a cancellation is the client going away (or the server
            // stopping).
            self.init(.clientClosedRequest, "the client closed the connection before the answer")
        default:
            self.init(.internalError, String(describing: error))
        }
    }

    /// An origin's failure is 502, but for its 404, a URL that is not http(s), and a budget the input passed.
    static func code(for code: FetchError.Code) -> Code {
        switch code {
        case .notFound: .notFound
        case .unsupportedURL: .originNotAllowed
        case .budgetExceeded: .overBudget
        case .forbidden, .rangeNotSatisfiable, .clientError, .serverError, .connectionRefused, .connectionReset,
             .connectionFailed, .truncatedBody, .bodyTooLong, .contentRangeMismatch, .invalidResponse, .resourceChanged,
             .timedOut, .redirectRefused:
            .originFailed
        @unknown default: .internalError
        }
    }

    /// A source that cannot be opened or read is the origin's failure (a local file under the media root included).
    static func code(for code: ReadError.Code) -> Code {
        switch code {
        case .cannotOpen, .cannotRead, .suffixNeedsLength: .originFailed
        @unknown default: .internalError
        }
    }

    /// A movie's failures are bad media, but for an answer that does not fit what was read (the source's).
    static func code(for code: MP4Error.Code) -> Code {
        switch code {
        case .notAMovie, .needMoreBytes, .malformed, .unsupported, .notFound: .unsupportedMedia
        case .limitExceeded: .unsupportedMedia
        case .readFailed: .originFailed
        @unknown default: .internalError
        }
    }

    /// Every playlist or manifest failure is bad media.
    static func code(for code: ManifestError.Code) -> Code {
        switch code {
        case .notAManifest, .malformed, .unsupported, .limitExceeded, .empty: .unsupportedMedia
        @unknown default: .internalError
        }
    }

    /// Every transport stream failure is bad media.
    static func code(for code: TransportStreamError.Code) -> Code {
        switch code {
        case .notTransportStream, .malformed, .unsupported, .limitExceeded: .unsupportedMedia
        @unknown default: .internalError
        }
    }

    /// A Matroska file's failures are bad media; an answer that does not fit its request is the origin's.
    static func code(for code: MatroskaError.Code) -> Code {
        switch code {
        case .notMatroska, .malformed, .unsupported, .limitExceeded: .unsupportedMedia
        case .readFailed: .originFailed
        @unknown default: .internalError
        }
    }

    /// What a decoder refuses is bad media; a decoder that cannot be made, or a restart it asks of us, is ours.
    static func code(for code: DecodeError.Code) -> Code {
        switch code {
        case .unsupportedCodec, .unsupportedFeature, .badConfiguration, .missingParameterSets, .malformedSample,
             .decoderRejected, .noFrame, .limitExceeded:
            .unsupportedMedia
        case .decoderUnavailable, .restartFromKeyframe: .internalError
        @unknown default: .internalError
        }
    }

    /// The movie's failures are bad media and its limits a budget; a refused option is the request's; an encoder or a
    /// write is ours.
    static func code(for code: ThumbnailError.Code) -> Code {
        switch code {
        case .invalidOption: .badParameter
        case .noVideo: .noVideo
        case .noSamples, .sampleOutOfRange, .noFrame, .invalidFrame, .invalidImage: .unsupportedMedia
        case .limitExceeded: .overBudget
        case .encodingFailed, .writeFailed: .internalError
        @unknown default: .internalError
        }
    }

    /// A storyboard's options and grid are the request's; a movie without keyframes or duration is bad media; a
    /// WebVTT track that cannot be read (the service reads none of its own making) is bad input too.
    static func code(for code: StoryboardError.Code) -> Code {
        switch code {
        case .invalidOption, .invalidGrid: .badParameter
        case .noSamples, .noDuration, .noKeyframe, .unorderedKeyframes: .unsupportedMedia
        case .notWebVTT, .malformedTiming, .missingImage, .malformedRegion: .unsupportedMedia
        @unknown default: .internalError
        }
    }
}
