/// The top-level boxes of a file that make up its index, gathered by a parse in memory or by `MovieLocator`.
struct TopLevelBoxes: Sendable {
    var fileType: FileTypeBox?
    var moov: ContainerBox?
    var fragments: [ContainerBox] = []
    var segmentIndexes: [SegmentIndexBox] = []
    var mfra: ContainerBox?
    /// Headers of every top-level box seen, in file order.
    var headers: [BoxHeader] = []
    var diagnostics: [ParseDiagnostic] = []

    /// Adds a parsed top-level box.
    mutating func add(_ box: any Box, limits: ParseLimits) throws(MP4Error) {
        headers.append(box.header)
        switch box {
        case let ftyp as FileTypeBox where box.header.type == "ftyp":
            if fileType == nil { fileType = ftyp }
        case let container as ContainerBox:
            switch container.header.type {
            case "moov":
                if moov == nil {
                    moov = container
                } else {
                    diagnostics.append(ParseDiagnostic(path: "moov", offset: container.header.offset, detail: "second moov ignored"))
                }
            case "moof":
                guard fragments.count < limits.maximumFragmentCount else {
                    throw MP4Error(.limitExceeded, path: "moof", offset: container.header.offset,
                                   "more than \(limits.maximumFragmentCount) movie fragments")
                }
                fragments.append(container)
            case "mfra":
                mfra = container
            default:
                break
            }
        case let sidx as SegmentIndexBox:
            segmentIndexes.append(sidx)
        default:
            break
        }
    }
}
