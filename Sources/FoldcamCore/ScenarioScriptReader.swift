/// Reads a scenario script, `{"steps": [STEP, …]}`, one step at a time: only one step's value
/// exists at once, so a script of any length costs its bytes plus one step of memory. The
/// document is still checked whole (syntax, duplicate and unknown members) like any other.
struct ScenarioScriptReader {
    private var parser: JSONParser

    init(bytes: [UInt8]) {
        parser = JSONParser(bytes: bytes)
    }

    /// Calls `step` with each step in order (its path and value); document-level problems
    /// (not an object, `steps` missing or not an array, unknown members) go to `collector`.
    mutating func read(collector: ErrorCollector, step: (String, JSONValue) -> Void) throws(JSONSyntaxError) {
        parser.skipWhitespace()
        guard parser.current == UInt8(ascii: "{") else {
            let value = try parser.parseValue()
            try finish()
            collector.add("", "expected an object, found \(value.kindDescription)")
            return
        }
        try parser.enterContainer()
        var names: Set<String> = []
        var more = parser.current != UInt8(ascii: "}")
        while more {
            guard parser.current == UInt8(ascii: "\"") else { throw parser.error("expected a member name in quotes") }
            let key = try parser.parseString()
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: ":") else { throw parser.error("expected ':' after member name") }
            parser.index += 1
            parser.skipWhitespace()
            guard names.insert(key).inserted else { throw parser.error("duplicate member \"\(key)\"") }
            if key == "steps" {
                try readSteps(collector: collector, step: step)
            } else {
                // Parsed (and dropped) for its syntax; unknown members are reported.
                _ = try parser.parseValue()
                collector.add(key, "unknown field (expected one of: steps)")
            }
            parser.skipWhitespace()
            switch parser.current {
            case UInt8(ascii: ","):
                parser.index += 1
                parser.skipWhitespace()
            case UInt8(ascii: "}"):
                more = false
            default:
                throw parser.error("expected ',' or '}' in object")
            }
        }
        parser.index += 1  // the closing brace
        parser.depth -= 1
        try finish()
        if !names.contains("steps") { collector.add("steps", "missing (expected an array of steps)") }
    }

    private mutating func readSteps(collector: ErrorCollector, step: (String, JSONValue) -> Void) throws(JSONSyntaxError) {
        guard parser.current == UInt8(ascii: "[") else {
            let value = try parser.parseValue()
            collector.add("steps", "expected an array, found \(value.kindDescription)")
            return
        }
        try parser.enterContainer()
        var index = 0
        if parser.current == UInt8(ascii: "]") {
            parser.index += 1
            parser.depth -= 1
            return
        }
        while true {
            step("steps[\(index)]", try parser.parseValue())
            index += 1
            parser.skipWhitespace()
            switch parser.current {
            case UInt8(ascii: ","):
                parser.index += 1
                parser.skipWhitespace()
            case UInt8(ascii: "]"):
                parser.index += 1
                parser.depth -= 1
                return
            default:
                throw parser.error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func finish() throws(JSONSyntaxError) {
        parser.skipWhitespace()
        if parser.index != parser.bytes.count { throw parser.error("unexpected text after the JSON value") }
    }
}
