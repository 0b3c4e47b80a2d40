import ByteSources
import HTTPTypes
import RangeFetch
import Testing

/// The inputs a playlist names (`MovieInput.input(at:)`): read as the playlist is, credentials only to its origin.
@Suite struct NamedInputTests {
    static func playlist(allowing allowed: String? = nil) throws -> HTTPInput {
        var options = HTTPFetchOptions()
        options.headers = [.authorization: "Bearer secret", .cookie: "session=1", .userAgent: "tests"]
        if let allowed { options.allowsRedirect = { $0.hasPrefix(allowed) } }
        return try HTTPInput(url: "https://media.example/show/master.m3u8", options: options)
    }

    @Test func theSameOriginGetsEveryHeader() throws {
        let named = try #require(try Self.playlist().input(at: "https://media.example/show/720p/seg1.m4s") as? HTTPInput)
        #expect(named.url == "https://media.example/show/720p/seg1.m4s")
        #expect(named.options.headers[.authorization] == "Bearer secret")
        #expect(named.options.headers[.cookie] == "session=1")
    }

    @Test func anotherOriginGetsNoCredentials() throws {
        let named = try #require(try Self.playlist().input(at: "https://cdn.example/seg1.m4s") as? HTTPInput)
        #expect(named.options.headers[.authorization] == nil)
        #expect(named.options.headers[.cookie] == nil)
        #expect(named.options.headers[.userAgent] == "tests")
    }

    @Test func aURLOutsideTheAllowedOnesIsRefused() throws {
        let playlist = try Self.playlist(allowing: "https://media.example/show/")
        #expect(throws: Never.self) { try playlist.input(at: "https://media.example/show/seg1.m4s") }
        #expect(throws: FetchError(.redirectRefused, url: "https://elsewhere.example/seg1.m4s",
                                   "https://media.example/show/master.m3u8 names a url outside the allowed origins")) {
            try playlist.input(at: "https://elsewhere.example/seg1.m4s")
        }
        #expect(throws: FetchError.self) { try playlist.input(at: "file:///etc/passwd") }
    }

    @Test func aFileNamesFilesAlone() throws {
        let file = FileInput(path: "/media/show/index.m3u8")
        #expect((try file.input(at: "/media/show/seg1.ts") as? FileInput)?.path == "/media/show/seg1.ts")
        #expect(throws: ReadError.self) { try file.input(at: "https://media.example/seg1.ts") }
        #expect(throws: ReadError.self) { try CustomInput(key: "x") { MemoryByteSource([]) }.input(at: "y") }
    }
}
