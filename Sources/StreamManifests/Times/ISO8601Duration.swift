/// XML Schema durations as DASH writes them (`PT1H2M3.5S`, `P1DT0.5S`, `PT0S`; ISO 8601's format), exactly.
enum ISO8601Duration {
    /// `text` as a Duration, nil when it is not a duration. Years count 365 days and months 30 (a manifest that
    /// states its length in months names no exact time; the few that write `P0Y0M...` read exactly). Negative
    /// durations are not accepted: no attribute DASH times with one may be negative.
    static func duration(_ text: String) -> Duration? {
        var rest = Substring(text.trimmingASCIIWhitespace())
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = Duration.zero
        var inTime = false
        var sawComponent = false
        while !rest.isEmpty {
            if rest.first == "T" {
                guard !inTime else { return nil }
                inTime = true
                rest = rest.dropFirst()
                continue
            }
            guard let designatorIndex = rest.firstIndex(where: { $0.isLetter }) else { return nil }
            let number = rest[..<designatorIndex]
            let designator = rest[designatorIndex]
            rest = rest[rest.index(after: designatorIndex)...]
            guard let value = DecimalSeconds.duration(number) else { return nil }
            let unit: Int64
            switch (designator, inTime) {
            case ("Y", false): unit = 365 * 86_400
            case ("M", false): unit = 30 * 86_400
            case ("W", false): unit = 7 * 86_400
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3_600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            // Fractions are allowed on any component (`PT0.5H`); values are capped well below overflow.
            guard value <= .seconds(DecimalSeconds.maximumSeconds / unit) else { return nil }
            total += value * unit
            sawComponent = true
        }
        return sawComponent ? total : nil
    }
}
