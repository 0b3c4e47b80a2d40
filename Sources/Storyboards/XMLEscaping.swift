/// Text for XML and HTML: the DASH manifest's attributes, the service's page.
package enum XMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element text and attribute values alike.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
