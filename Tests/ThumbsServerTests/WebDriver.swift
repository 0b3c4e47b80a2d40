import AsyncHTTPClient
import Foundation
import NIOCore
import RangeFetchTestSupport

/// A headless Debian chromium driven through chromedriver's W3C WebDriver protocol (JSON over HTTP): enough to load
/// a page, run scripts in it, move the pointer, resize the window and take screenshots.
final class WebDriver: @unchecked Sendable {
    // @unchecked: `process`, `base` and `session` are set in init and only read after.
    static let chromedriver = "/usr/bin/chromedriver"
    static let chromium = "/usr/bin/chromium"
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: chromedriver) && FileManager.default.isExecutableFile(atPath: chromium)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let base: String
    private var session = ""
    /// chromium's profile directory, of this browser alone: how its processes are found when it is ended.
    private let profile = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-chromium-\(UUID().uuidString)").path

    /// Starts chromedriver and a headless chromium window of `width` x `height`.
    init(width: Int, height: Int) async throws {
        let port = try Nginx.freePort()
        base = "http://127.0.0.1:\(port)"
        process.executableURL = URL(fileURLWithPath: Self.chromedriver)
        process.arguments = ["--port=\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            try OrphanGuard.watch(process.processIdentifier, alsoMentioning: profile)
            var ready = false
            for _ in 0..<100 where !ready {
                try await Task.sleep(for: .milliseconds(100))
                let status = (try? await call("GET", "/status")) as? [String: Any]
                ready = status?["ready"] as? Bool == true
            }
            guard ready else { throw Failure(description: "chromedriver did not start") }
            let options: [String: Any] = ["binary": Self.chromium,
                                          "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                                   "--user-data-dir=\(profile)",
                                                   "--window-size=\(width),\(height)", "--hide-scrollbars"]]
            let created = try await call("POST", "/session", ["capabilities": ["alwaysMatch": ["browserName": "chrome",
                                                                                              "goog:chromeOptions": options]]])
            guard let id = (created as? [String: Any])?["sessionId"] as? String else {
                throw Failure(description: "no session: \(String(describing: created))")
            }
            session = id
        } catch {
            await Self.end(process, profile: profile)
            throw error
        }
    }

    /// Runs `body` with a browser of `width` x `height`, and ends the browser and chromedriver when it returns or
    /// throws, before this returns: nothing it started outlives the test.
    static func with<T>(width: Int, height: Int, _ body: (WebDriver) async throws -> T) async throws -> T {
        let browser = try await WebDriver(width: width, height: height)
        do {
            let result = try await body(browser)
            await browser.quit()
            return result
        } catch {
            await browser.quit()
            throw error
        }
    }

    /// Ends the session (chromium quits), then chromedriver, and waits until both are gone.
    func quit() async {
        if !session.isEmpty { _ = try? await call("DELETE", "/session/\(session)") }
        await Self.end(process, profile: profile)
    }

    /// Kills chromedriver and waits until it is reaped, then waits (up to 10 s) for the chromium processes of
    /// `profile` to leave and kills what is left; removes the profile. SIGKILL, as the test process may block SIGTERM
    /// and its children inherit the mask: SIGTERM left a chromedriver behind after every run, and chromium's
    /// processes took seconds to leave after their session ended.
    private static func end(_ process: Process, profile: String) async {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<50 where process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
        for _ in 0..<100 where !processes(mentioning: profile).isEmpty { try? await Task.sleep(for: .milliseconds(100)) }
        for pid in processes(mentioning: profile) { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// The processes whose command line mentions `text` (from /proc).
    static func processes(mentioning text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            return String(decoding: line, as: UTF8.self).contains(text) ? pid : nil
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for pid in Self.processes(mentioning: profile) { kill(pid, SIGKILL) }
    }

    /// Loads `url` and waits for its load event.
    func open(_ url: String) async throws {
        _ = try await call("POST", "/session/\(session)/url", ["url": url])
    }

    /// The value of `script` (a function body; `arguments` are the script's arguments).
    @discardableResult
    func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await call("POST", "/session/\(session)/execute/sync", ["script": script, "args": arguments])
    }

    /// The first element matching `selector`, as WebDriver names it.
    func element(_ selector: String) async throws -> String {
        let found = try await call("POST", "/session/\(session)/element", ["using": "css selector", "value": selector])
        guard let reference = (found as? [String: Any])?.values.first as? String else { throw Failure(description: "no \(selector)") }
        return reference
    }

    /// Moves the mouse to `x`, `y` from the centre of `element`.
    func hover(_ element: String, x: Int, y: Int) async throws {
        let move: [String: Any] = ["type": "pointerMove", "duration": 0, "x": x, "y": y,
                                   "origin": ["element-6066-11e4-a52e-4f735466cecf": element]]
        _ = try await call("POST", "/session/\(session)/actions", ["actions": [[
            "type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": [move],
        ]]])
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) async throws {
        _ = try await call("POST", "/session/\(session)/window/rect", ["width": width, "height": height])
    }

    /// A PNG of the viewport.
    func screenshot() async throws -> Data {
        guard let text = try await call("GET", "/session/\(session)/screenshot") as? String, let png = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot")
        }
        return png
    }

    /// Polls `script` until it returns true, for at most `seconds`.
    func wait(seconds: Double, until script: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await run(script) as? Bool == true { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// One command; its `value`, or the error it answered.
    private func call(_ method: String, _ path: String, _ body: Any? = nil) async throws -> Any? {
        var request = HTTPClientRequest(url: base + path)
        request.method = .RAW(value: method)
        if method == "POST" {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body ?? [String: Any]())))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let data = Data(buffer: try await response.body.collect(upTo: 64 << 20))
        let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let value = answer?["value"]
        if let error = (value as? [String: Any])?["error"] as? String {
            throw Failure(description: "\(method) \(path): \(error): \((value as? [String: Any])?["message"] ?? "")")
        }
        return value is NSNull ? nil : value
    }
}
