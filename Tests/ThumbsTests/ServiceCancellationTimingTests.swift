import ByteSources
import Foundation
import MP4BoxTestSupport
import Testing
@testable import Thumbs

/// How soon cancelled work lets go, timed: run alone after the parallel run (scripts/test.sh), so that other tests'
/// work on the same threads does not stretch what is measured.
@Suite struct ServiceCancellationTimingTests {
    /// A full-size 4K picture whose only waiter goes away while it is rendered stops within a few rows: its picture
    /// permit is back within half a second of the cancellation (the cancellation reaches the work at once, and the
    /// scaler and colour conversion check it every 64 rows and 65,536 pixels). It used to render and encode to the
    /// end: 1.5 s and more in a debug build, holding its permit and its pictures.
    @Test func workAbandonedMidRenderStopsWithinRows() async throws {
        var configuration = ThumbnailService.Configuration()
        configuration.maximumConcurrentDecodes = 1
        let service = ThumbnailService(configuration: configuration)
        var options = ThumbnailOptions()
        options.format = .png
        let request = ThumbnailRequest(asset: ThumbnailAsset(FileInput(path: Fixtures.path("h264-2160p"))), time: .seconds(0),
                                       options: options)
        let waiter = Task { try await service.thumbnail(request) }
        let permits = service.workLimits.decodes
        #expect(await eventually { await permits.active == 1 })
        try await Task.sleep(for: .milliseconds(300))  // decoded (tens of ms), rendering (1.6 s in a debug build)
        let cancelled = ContinuousClock.now
        waiter.cancel()
        // Polled for up to 5 s (the old render and encode took 2 s and more from here).
        while await permits.active > 0, ContinuousClock.now - cancelled < .seconds(5) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let stopped = ContinuousClock.now - cancelled
        #expect(stopped < .milliseconds(500), "the permit came back \(stopped) after the cancellation")
        #expect(await service.statistics.cancelledWork == 1)
    }
}
