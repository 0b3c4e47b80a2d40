import StreamManifests
import Testing

/// RFC 3986 section 5.4's examples, normal and abnormal, against its base `http://a/b/c/d;p?q`.
@Suite struct URLReferenceTests {
    static let base = "http://a/b/c/d;p?q"

    static let examples: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
        // Section 5.4.2, abnormal examples.
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
    ]

    @Test(arguments: examples)
    func resolvesTheRFCExample(reference: String, expected: String) {
        #expect(URLReference.resolve(reference, against: Self.base) == expected)
    }

    @Test func resolvesAgainstPathsAndNoBase() {
        let base = "https://h.example/a/b/track.vtt#frag"
        #expect(URLReference.resolve("../../s.jpg", against: base) == "https://h.example/s.jpg")
        #expect(URLReference.resolve("s.jpg", against: "/var/www/thumbs.vtt") == "/var/www/s.jpg")
        #expect(URLReference.resolve("s.jpg", against: "out/thumbs.vtt") == "out/s.jpg")
        #expect(URLReference.resolve("s.jpg", against: "https://h.example") == "https://h.example/s.jpg")
        #expect(URLReference.resolve("s.jpg", against: nil) == "s.jpg")
    }
}
