/// ffprobe's display matrix side data, as it prints it: three lines `n: a b u`, in 16.16 fixed point.
public enum FFprobeDisplayMatrix {
    /// The linear part (a, b, c, d) divided by 65536, or identity when there is no matrix or it is not three rows of
    /// three numbers.
    public static func linearPart(_ text: String?) -> (Double, Double, Double, Double) {
        guard let text else { return (1, 0, 0, 1) }
        let rows = text.split(whereSeparator: \.isNewline).map { line in
            line.split(separator: ":").dropFirst().joined().split(separator: " ").compactMap { Double($0) }
        }.filter { $0.count == 3 }
        guard rows.count == 3 else { return (1, 0, 0, 1) }
        return (rows[0][0] / 65536, rows[0][1] / 65536, rows[1][0] / 65536, rows[1][1] / 65536)
    }
}
