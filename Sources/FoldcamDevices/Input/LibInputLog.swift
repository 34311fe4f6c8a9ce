import CLibInput
import FoldcamIO

/// libinput's own messages ("kernel bug: ...", quirks it cannot parse) through `Log`, so they carry
/// a syslog priority prefix like the rest of foldcamd's stderr; libinput's default handler writes
/// "libinput error: ..." without one, and journald would file it at the unit's default priority.
enum LibInputLog {
    /// Installs the handler on a context. A C callback captures nothing, so it writes through a
    /// default `Log`: libinput's own threshold stays at its default (errors only), which every
    /// foldcam log level shows anyway.
    static func install(on handle: OpaquePointer, _ libinput: LibInput) {
        // The handler's type stays inside this body: Swift 6.3 cannot write a C function type
        // with a va_list itself, and crashes when another module reads back a declaration whose
        // imported type mentions va_list (hence the raw pointer in clibinput_log_set_handler_fn).
        let handler: libinput_log_handler = { _, priority, format, arguments in
            guard let format, let arguments else { return }
            let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { buffer in
                // A va_list can be walked once: a longer message is cut rather than formatted twice.
                _ = clibinput_format(buffer.baseAddress, buffer.count, format, arguments)
                return String(cString: buffer.baseAddress!)
            }
            Log().log(LibInputLog.priority(priority), "libinput: " + text.trimmingSuffix("\n"))
        }
        libinput.logSetHandler(handle, unsafeBitCast(handler, to: UnsafeRawPointer.self))
    }

    static func priority(_ priority: libinput_log_priority) -> Log.Priority {
        switch priority {
        case LIBINPUT_LOG_PRIORITY_DEBUG: return .debug
        case LIBINPUT_LOG_PRIORITY_INFO: return .info
        default: return .error
        }
    }
}

private extension String {
    /// libinput's messages end in a newline; `Log` adds its own.
    func trimmingSuffix(_ suffix: Character) -> String {
        var text = self
        while text.last == suffix { text.removeLast() }
        return text
    }
}
