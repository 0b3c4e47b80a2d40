import ArgumentParser

/// `--no-transform`, for every subcommand that renders pictures: whether the track's matrix (rotation, mirror) is
/// applied, as AVFoundation's `appliesPreferredTrackTransform`.
struct TransformOption: ParsableArguments {
    @Flag(name: .customLong("no-transform"), help: "Do not apply the track's rotation or mirror.")
    var noTransform = false

    /// Whether pictures are turned upright by the track's matrix.
    var appliesPreferredTrackTransform: Bool { !noTransform }
}
