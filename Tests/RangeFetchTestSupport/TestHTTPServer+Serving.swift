extension TestHTTPServer.Faults {
    /// The faults `configure` sets, on a server that otherwise behaves.
    public init(_ configure: (inout Self) -> Void) {
        self.init()
        configure(&self)
    }
}

extension TestHTTPServer {
    /// Serves `files` with `faults` while `body` runs, and stops listening when it returns or throws (awaited, so no
    /// server outlives its test).
    public static func serving<Result>(_ files: [String: [UInt8]], faults: Faults = Faults(),
                                       _ body: (TestHTTPServer) async throws -> Result) async throws -> Result {
        let server = try await TestHTTPServer(files: files, faults: faults)
        let result: Result
        do {
            result = try await body(server)
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
        return result
    }
}
