import HummingbirdCore

/// A request's query parameters (values percent-decoded), read by name with typed, range-checked accessors whose
/// failures are `ServerError` `badParameter` naming the parameter. A parameter given twice, or one the route does not
/// know, is refused too: a typo must not silently give a default picture under a URL of its own in every cache.
struct QueryParameters {
    private var values: [String: String] = [:]

    /// The parameters of `uri`, of which only `known` (and `sig`) are accepted.
    init(_ uri: URI, known: Set<String>) throws(ServerError) {
        for (key, value) in uri.queryParameters {
            let name = String(key)
            guard name != "sig" else { continue }
            guard known.contains(name) else {
                throw ServerError(.badParameter, parameter: name, "unknown parameter \(name)")
            }
            guard values[name] == nil else { throw ServerError(.badParameter, parameter: name, "\(name) is given twice") }
            values[name] = String(value)
        }
    }

    /// The text of `name`, when given.
    func string(_ name: String) -> String? { values[name] }

    /// A number of `name` within `range`, when given.
    func double(_ name: String, in range: ClosedRange<Double>) throws(ServerError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw ServerError(.badParameter, parameter: name, "\(name) is not a number")
        }
        guard range.contains(value) else {
            throw ServerError(.badParameter, parameter: name, "\(name) must be within \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// A whole number of `name` within `range`, when given.
    func int(_ name: String, in range: ClosedRange<Int>) throws(ServerError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text) else { throw ServerError(.badParameter, parameter: name, "\(name) is not a whole number") }
        guard range.contains(value) else {
            throw ServerError(.badParameter, parameter: name, "\(name) must be within \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// `1`/`true` or `0`/`false` of `name`; false when not given.
    func flag(_ name: String) throws(ServerError) -> Bool {
        switch values[name] {
        case nil, "0", "false": false
        case "1", "true", "": true
        default: throw ServerError(.badParameter, parameter: name, "\(name) must be 1 or 0")
        }
    }

    /// One of `choices` for `name`, when given.
    func choice<T>(_ name: String, _ choices: [String: T]) throws(ServerError) -> T? {
        guard let text = values[name] else { return nil }
        guard let value = choices[text] else {
            throw ServerError(.badParameter, parameter: name, "\(name) must be one of \(choices.keys.sorted().joined(separator: ", "))")
        }
        return value
    }
}
