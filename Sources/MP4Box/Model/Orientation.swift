/// How a track's pictures are turned for display: an optional horizontal mirror, then a clockwise rotation.
///
/// Read from the tkhd matrix composed with the mvhd matrix. Only the eight
/// axis-aligned cases are orientations; anything else (a shear, an odd angle)
/// is reported as `nil` by `init(matrix:)`, never guessed.
public struct Orientation: Sendable, Equatable, CustomStringConvertible {
    /// Clockwise rotation in degrees: 0, 90, 180 or 270.
    public var rotation: Int
    /// Whether the picture is mirrored left-right before rotating.
    public var mirrored: Bool

    /// Upright, unmirrored.
    public static let identity = Orientation(rotation: 0, mirrored: false)

    /// Makes an orientation.
    public init(rotation: Int, mirrored: Bool) {
        self.rotation = rotation
        self.mirrored = mirrored
    }

    /// The orientation of a linear part (a, b, c, d), or `nil` when it is not one of the eight.
    ///
    /// Scale is ignored: each of a, b, c, d is classified by sign after dividing by the largest magnitude.
    public init?(linear m: (a: Double, b: Double, c: Double, d: Double)) {
        let scale = max(abs(m.a), abs(m.b), abs(m.c), abs(m.d))
        guard scale > 0 else { return nil }
        func unit(_ value: Double) -> Int? {
            let normalised = value / scale
            if abs(normalised) < 1e-3 { return 0 }
            if abs(normalised - 1) < 1e-3 { return 1 }
            if abs(normalised + 1) < 1e-3 { return -1 }
            return nil
        }
        guard let a = unit(m.a), let b = unit(m.b), let c = unit(m.c), let d = unit(m.d) else { return nil }
        for candidate in Orientation.all where candidate.linear == (a, b, c, d) {
            self = candidate
            return
        }
        return nil
    }

    /// The eight orientations.
    public static let all: [Orientation] = [0, 90, 180, 270].flatMap { rotation in
        [Orientation(rotation: rotation, mirrored: false), Orientation(rotation: rotation, mirrored: true)]
    }

    /// The linear part (a, b, c, d) of rotate(clockwise) · mirror, in y-down image coordinates.
    public var linear: (Int, Int, Int, Int) {
        // Clockwise rotation by r in y-down coordinates: x' = cos·x - sin·y, y' = sin·x + cos·y.
        let (cosine, sine): (Int, Int) = switch rotation {
        case 90: (0, 1)
        case 180: (-1, 0)
        case 270: (0, -1)
        default: (1, 0)
        }
        let flip = mirrored ? -1 : 1
        // [cos -sin; sin cos] · [flip 0; 0 1] = [cos·flip, -sin; sin·flip, cos]
        return (cosine * flip, sine * flip, -sine, cosine)
    }

    /// Whether width and height trade places on display.
    public var swapsDimensions: Bool { rotation == 90 || rotation == 270 }

    public var description: String {
        "rotate \(rotation)" + (mirrored ? ", mirrored" : "")
    }
}
