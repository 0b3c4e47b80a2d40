import Testing
import Thumbs

extension Thumbnail {
    /// Where in the stream the picture came from; a thumbnail without one (a movie's) fails the test here.
    var position: StreamPosition {
        get throws { try #require(streamPosition) }
    }
}
