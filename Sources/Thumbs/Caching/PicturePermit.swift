/// One place in a limiter of pictures at once (`ThumbnailWorkLimits.decodes`), held by everything that holds one
/// thumbnail's pictures: taken before its decoder is made, kept while the frame is decoded, rendered, encoded and
/// summed up as a placeholder, and given back once, after those pictures and the decoder are gone.
///
/// Holding one place for the whole stage (not one for each decode step) is what bounds a service's memory by its
/// decodes at once rather than by its queue: a request waiting for a place holds no picture.
package struct PicturePermit {
    private let limiter: AsyncLimiter?
    /// Whether the place is taken (always false without a limiter).
    package private(set) var isHeld = false

    /// A permit of `limiter`'s; nil: no bound, taking and giving back do nothing.
    package init(_ limiter: AsyncLimiter?) {
        self.limiter = limiter
    }

    /// Takes the place, once; later calls do nothing.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    package mutating func take() async throws {
        guard let limiter, !isHeld else { return }
        try await limiter.acquire()
        isHeld = true
    }

    /// Gives the place back, if it was taken.
    package mutating func giveBack() async {
        guard let limiter, isHeld else { return }
        isHeld = false
        await limiter.release()
    }
}
