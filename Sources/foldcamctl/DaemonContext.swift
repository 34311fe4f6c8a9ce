import FoldcamClient
import FoldcamCore
import FoldcamIO

/// What every daemon subcommand shares: where the socket is, the output style, one connection.
struct DaemonContext {
    var socketPath: String?
    var json: Bool

    func connect() throws(FoldcamClientError) -> FoldcamConnection {
        try FoldcamConnection(path: socketPath)
    }

    /// One request over a fresh connection.
    func call(_ method: String, _ params: JSONValue = .object([])) async throws(FoldcamClientError) -> JSONValue {
        let connection = try connect()
        defer { connection.close() }
        return try await connection.request(method: method, params: params)
    }

    /// Prints `value` compactly (for --json), flushing so pipes see it at once.
    func printJSON(_ value: JSONValue) {
        emit(value.compactText)
    }

    /// Writes one line straight to standard output (unbuffered, so pipes see it at once).
    func emit(_ line: String) {
        StandardOutput.write(line + "\n")
    }
}

extension ParsedArguments {
    /// A positional that must be one of `choices` (usage error otherwise).
    mutating func requireChoice(_ what: String, _ choices: [String]) throws -> String {
        let value = try requirePositional("\(what) (\(choices.joined(separator: "|")))")
        guard choices.contains(value) else {
            throw UsageError("\(what): expected \(choices.joined(separator: " or ")), got \"\(value)\"")
        }
        return value
    }

    mutating func requireNumber(_ what: String) throws -> Double {
        let text = try requirePositional(what)
        guard let value = Double(text), value.isFinite else {
            throw UsageError("\(what): expected a number, got \"\(text)\"")
        }
        return value
    }
}
