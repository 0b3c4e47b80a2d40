/// Joins the payloads of one PID's packets into PSI sections (ISO/IEC 13818-1, 2.4.4): a packet that starts a
/// section carries a `pointer_field` to it, a section may continue over several packets, and several may share one.
struct SectionAssembler {
    /// Longest section: `section_length` is at most 1,021 for PAT and PMT, 4,093 for private sections.
    static let maximumSectionBytes = 3 + 4093

    private var pending: [UInt8] = []
    private var isInSection = false

    /// The sections that `payload` completes. Bytes that continue no section (a packet lost before) are dropped.
    mutating func append(_ payload: ArraySlice<UInt8>, startsUnit: Bool) -> [[UInt8]] {
        var sections: [[UInt8]] = []
        var rest = payload
        if startsUnit {
            guard let pointer = rest.first else { return [] }
            rest = rest.dropFirst()
            let before = rest.prefix(Int(pointer))
            if isInSection {
                pending += before
                sections += takeSections()
            }
            rest = rest.dropFirst(Int(pointer))
            pending = []
            isInSection = true
        } else if !isInSection {
            return []
        }
        pending += rest
        sections += takeSections()
        return sections
    }

    /// The complete sections at the front of `pending`; stops at stuffing (0xFF) or an incomplete section.
    private mutating func takeSections() -> [[UInt8]] {
        var sections: [[UInt8]] = []
        while true {
            guard let tableID = pending.first else { isInSection = false; return sections }
            if tableID == 0xFF {
                pending = []
                isInSection = false
                return sections
            }
            guard pending.count >= 3 else { return sections }
            let length = 3 + (Int(pending[1] & 0x0F) << 8 | Int(pending[2]))
            guard pending.count >= length else {
                if pending.count > Self.maximumSectionBytes { pending = []; isInSection = false }
                return sections
            }
            sections.append(Array(pending[..<length]))
            pending.removeFirst(length)
        }
    }
}
