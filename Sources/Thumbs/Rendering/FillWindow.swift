/// Which part of the picture `.fill` keeps when it cuts the picture to the box's shape.
public enum FillWindow: Sendable, Hashable {
    /// The centre.
    case centre
    /// The part with the most detail, saturated colour and skin tones (`SubjectWindow`), as libvips' `attention`
    /// strategy looks for what draws the eye.
    case subject
    /// The part centred on a point the caller knows: `x` and `y` are fractions (0...1) of the upright picture's width
    /// and height; the window stays on the picture, so a point near an edge is off its centre.
    case focus(x: Double, y: Double)

    /// The focus a text names, as the command line's `--focus` and the service's `focus=` take it: `X,Y`, two
    /// fractions from 0 to 1; nil for any other text.
    public init?(focus text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), (0...1).contains(x), (0...1).contains(y) else {
            return nil
        }
        self = .focus(x: x, y: y)
    }
}
