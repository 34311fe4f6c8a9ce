import CLinuxShims
import Glibc

/// A POSIX thread for work that blocks (device I/O, socket reads), so it never runs on the
/// cooperative pool or the event loop. The one place foldcam creates threads.
public final class OSThread: @unchecked Sendable {
    // Sendable: the handle is immutable; join() is called by the single owner.
    private let handle: pthread_t

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private init(handle: pthread_t) {
        self.handle = handle
    }

    /// Starts a joinable thread; its owner must `join()` it.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> OSThread {
        OSThread(handle: try create(name: name, body))
    }

    /// Starts a thread nobody waits for; false when the system refuses a new thread.
    @discardableResult
    public static func detach(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        guard let handle = try? create(name: name, body) else { return false }
        pthread_detach(handle)
        return true
    }

    /// Waits for the thread to finish.
    public func join() {
        _ = pthread_join(handle, nil)
    }

    /// Lets the thread end on its own (instead of `join`): its resources go when it does.
    public func detach() {
        _ = pthread_detach(handle)
    }

    /// Each thread's stack: 1 MiB, not glibc's 8 MiB default (RLIMIT_STACK). A stack mapping
    /// of 2 MiB or more can hold an aligned 2 MiB range, and where transparent huge pages are
    /// "always" (Debian's kernel default) the thread's first touch of its stack then makes 2 MiB
    /// resident: in the e2e guest each such thread cost an idle daemon 2 MiB of VmRSS. No
    /// foldcam thread recurses deeply; 1 MiB is twice what macOS gives secondary threads.
    public static let stackBytes = 1 << 20

    private static func create(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> pthread_t {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        let result = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemCallError("pthread_create \(name)", Errno(rawValue: result))
        }
        // Thread names are at most 15 bytes; they show in top -H and gdb.
        _ = String(name.utf8.prefix(15))?.withCString { pthread_setname_np(thread, $0) }
        return thread
    }
}
