import CLinuxShims
import Glibc

/// A detached POSIX thread for work that blocks (device I/O), so it never runs on the
/// cooperative pool or the event loop.
public enum OSThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    public static func detach(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard result == 0 else {
            // No thread: run nothing rather than crash; callers see no events and report it.
            Unmanaged<Box>.fromOpaque(box).release()
            return
        }
        _ = String(name.prefix(15)).withCString { pthread_setname_np(thread, $0) }
        pthread_detach(thread)
    }
}
