/// A 3x3 transformation matrix as stored in mvhd and tkhd (ISO/IEC 14496-12, 6.2.2).
///
/// A point (x, y) maps to (a·x + c·y + tx, b·x + d·y + ty), with y pointing down.
/// a, b, c, d, tx, ty are 16.16 fixed point; u, v, w are 2.30.
public struct TransformMatrix: Sendable, Equatable {
    public var a: Int32, b: Int32, u: Int32
    public var c: Int32, d: Int32, v: Int32
    public var tx: Int32, ty: Int32, w: Int32

    /// The identity matrix.
    public static let identity = TransformMatrix(a: 0x10000, b: 0, u: 0, c: 0, d: 0x10000, v: 0, tx: 0, ty: 0, w: 0x4000_0000)

    /// Makes a matrix from its nine stored values.
    public init(a: Int32, b: Int32, u: Int32, c: Int32, d: Int32, v: Int32, tx: Int32, ty: Int32, w: Int32) {
        self.a = a; self.b = b; self.u = u
        self.c = c; self.d = d; self.v = v
        self.tx = tx; self.ty = ty; self.w = w
    }

    /// Reads the nine 32-bit values.
    static func read(from reader: inout BoxReader) throws(MP4Error) -> TransformMatrix {
        TransformMatrix(a: try reader.readInt32(), b: try reader.readInt32(), u: try reader.readInt32(),
                        c: try reader.readInt32(), d: try reader.readInt32(), v: try reader.readInt32(),
                        tx: try reader.readInt32(), ty: try reader.readInt32(), w: try reader.readInt32())
    }

    /// The 2x2 linear part as doubles: (a, b, c, d).
    public var linearPart: (a: Double, b: Double, c: Double, d: Double) {
        (Double(a) / 65536, Double(b) / 65536, Double(c) / 65536, Double(d) / 65536)
    }

    /// This matrix applied after `first` (the composition `self · first`), linear parts only.
    public func linearComposed(after first: TransformMatrix) -> (a: Double, b: Double, c: Double, d: Double) {
        let m = linearPart
        let f = first.linearPart
        // Column-vector form: [a c; b d].
        return (a: m.a * f.a + m.c * f.b,
                b: m.b * f.a + m.d * f.b,
                c: m.a * f.c + m.c * f.d,
                d: m.b * f.c + m.d * f.d)
    }
}
