import Synchronization

/// Hands values from any thread to the event loop: `post` appends and wakes the loop through an
/// eventfd; the loop drains everything posted so far in order.
public final class Mailbox<Message: Sendable>: Sendable {
    private let queue = Mutex<[Message]>([])
    public let descriptor: FileDescriptor

    public init() throws(SystemCallError) {
        descriptor = FileDescriptor(owning: try Syscall.eventFD())
    }

    public func post(_ message: Message) {
        queue.withLock { $0.append(message) }
        var one: UInt64 = 1
        _ = try? withUnsafeBytes(of: &one) { try descriptor.write($0) }
    }

    /// On the loop: everything posted so far.
    public func drain() -> [Message] {
        _ = descriptor.readCounter()
        return queue.withLock { messages in
            defer { messages.removeAll(keepingCapacity: true) }
            return messages
        }
    }
}
