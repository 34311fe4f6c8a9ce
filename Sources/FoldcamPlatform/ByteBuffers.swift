/// `withUnsafeBytes` and `withUnsafeMutableBytes` of arrays rethrow untyped errors; these carry
/// a `SystemCallError` out typed, so callers of the funnel keep one error type.
extension Array where Element == UInt8 {
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(SystemCallError) -> R) throws(SystemCallError) -> R {
        try withUnsafeBytes { raw in Result { () throws(SystemCallError) in try body(raw) } }.get()
    }

    package mutating func withMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws(SystemCallError) -> R) throws(SystemCallError) -> R {
        try withUnsafeMutableBytes { raw in Result { () throws(SystemCallError) in try body(raw) } }.get()
    }
}
