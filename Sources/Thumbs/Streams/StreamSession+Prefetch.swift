#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ByteSources
import MP4Box
import StreamManifests
import TransportStream

/// Keyframes an I-frame playlist lists in one resource, read together ahead of their readings, and the program tables
/// at an MPEG-TS resource's head, read once for all its keyframes.
extension StreamSession {
    /// Reads the byte ranges of `segments` (keyframes an I-frame playlist lists in one resource) together, with the
    /// program tables at an MPEG-TS resource's head when they have not been read: ranges that touch as one, then one
    /// request where the origin answers several ranges (`ByteSource.read(ranges:)`), within the shared fetch bound.
    /// The segments' readings then take their bytes from memory. Segments without a byte range, of another resource
    /// than the first's, or read already are left to their readings.
    package func prefetch(_ segments: [StreamSegment]) async throws {
        guard let url = segments.first?.resource.url else { return }
        let wanted = segments.filter { segment in
            segment.resource.url == url && !segment.isGap && !segmentReadings.contains { $0.key == segment.resource }
        }
        var ranges = wanted.compactMap(\.resource.byteRange).filter { !$0.isEmpty }
        guard !ranges.isEmpty else { return }
        let isTransportStream = wanted.allSatisfy { $0.initialization == nil }
        if isTransportStream, programTables[url] == nil, let first = ranges.map(\.lowerBound).min(), first > 0 {
            ranges.append(0 ..< min(TransportSegment.tableProbeBytes, first))
        }
        // Ranges that touch or overlap are one: an origin answers several ranges at once only when they are apart.
        let merged = SampleRanges.coalesce(ranges, maximumGap: 0)
        let source = CountingByteSource(try input.input(at: url).open(known: nil))
        let asked = merged
        let read = if let fetches = workLimits?.fetches {
            try await fetches.run { try await source.read(ranges: asked) }
        } else {
            try await source.read(ranges: asked)
        }
        for (range, bytes) in zip(merged, read) where UInt64(bytes.count) == range.upperBound - range.lowerBound {
            prefetched[url, default: []].append((range, bytes))
        }
    }

    /// What `prefetch(_:)` read that holds `resource`'s range, and the read that holds its resource's head (the
    /// program tables), if any. A read is dropped once no range of it is left to a reading: the head's once the
    /// program tables have been read, the others once their last keyframe is taken. Nil when none holds the range.
    func takePrefetched(for resource: StreamResource) -> [(range: Range<UInt64>, bytes: [UInt8])]? {
        guard let range = resource.byteRange, var held = prefetched[resource.url],
              let index = held.firstIndex(where: { $0.range.lowerBound <= range.lowerBound && range.upperBound <= $0.range.upperBound })
        else { return nil }
        let own = held[index]
        let head = held.first { $0.range.lowerBound == 0 }
        // A read holding keyframes after this one stays for them (keyframes are taken in order).
        if own.range.upperBound <= range.upperBound || own.range.lowerBound == 0 && programTables[resource.url] != nil {
            held.remove(at: index)
        }
        if programTables[resource.url] != nil { held.removeAll { $0.range.lowerBound == 0 && $0.range != own.range } }
        prefetched[resource.url] = held.isEmpty ? nil : held
        return [own] + (head.flatMap { $0.range == own.range ? nil : [$0] } ?? [])
    }

    /// The program tables at the head of the MPEG-TS resource `url`, read once (its first
    /// `TransportSegment.tableProbeBytes`, not past `start`); nil when they are not all there (the segment then reads
    /// on until they are).
    func tables(of url: String, before start: UInt64, in resource: CountingByteSource) async throws -> [UInt8]? {
        // Keyframes of one resource asked for at once share the one read.
        let read = programTables[url] ?? Task {
            let head = try await resource.read(0 ..< min(TransportSegment.tableProbeBytes, start))
            var demuxer = TransportStreamDemuxer()
            try? demuxer.append(head)
            return demuxer.video != nil ? head : nil
        }
        programTables[url] = read
        do {
            guard let head = try await read.value else {
                programTables[url] = nil
                return nil
            }
            return head
        } catch {
            programTables[url] = nil
            throw error
        }
    }
}
