/// A test failure with a message (thrown errors fail the test in Swift Testing).
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
