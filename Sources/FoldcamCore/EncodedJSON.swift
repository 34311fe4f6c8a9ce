/// A JSON value together with its compact encoding, made once and spliced into many lines: a
/// topic's value goes into every subscriber's event and every query's reply without being
/// encoded again.
public struct EncodedJSON: Sendable, Equatable {
    public let value: JSONValue
    /// `value.compactUTF8`.
    public let bytes: [UInt8]

    public init(_ value: JSONValue) {
        self.value = value
        bytes = value.compactUTF8
    }

    public static func == (a: EncodedJSON, b: EncodedJSON) -> Bool { a.bytes == b.bytes }
}
