import Glibc

/// A shared library loaded at run time with dlopen(3), for a dependency only one mode needs:
/// a process that never uses it does not map it (nor what it links), and a missing library is
/// an error the caller reports instead of a process that cannot start. glibc 2.34+ has dlopen in
/// libc itself, so nothing extra is linked.
///
/// The library is never closed: function pointers taken from it live as long as the process,
/// and libraries such as glib do not support being unloaded.
public struct DynamicLibrary: @unchecked Sendable {  // a dlopen handle may be used from any thread
    /// The name it was loaded by, as given (a soname such as "libinput.so.10").
    public let name: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `name`, searched like the dynamic linker searches. RTLD_NOW resolves every symbol of
    /// the library now, so a broken install fails here rather than at some later call; RTLD_LOCAL
    /// keeps its symbols (and its dependencies') out of the process's global namespace.
    public init(_ name: String) throws(DynamicLibraryError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw DynamicLibraryError(library: name, symbol: nil, reason: Self.lastError())
        }
        self.name = name
        self.handle = handle
    }

    /// The address of `symbol` in the library (or in the libraries it depends on).
    public func address(of symbol: String) throws(DynamicLibraryError) -> UnsafeMutableRawPointer {
        _ = dlerror()  // clear a stale message, so the one read below is this lookup's
        guard let address = dlsym(handle, symbol) else {
            throw DynamicLibraryError(library: name, symbol: symbol, reason: Self.lastError())
        }
        return address
    }

    /// `symbol` as a C function of type `T`, an `@convention(c)` function type. Nothing can check
    /// that `T` matches the C declaration: write it from the library's header.
    public func function<T>(_ symbol: String, as type: T.Type = T.self) throws(DynamicLibraryError) -> T {
        unsafeBitCast(try address(of: symbol), to: type)
    }

    private static func lastError() -> String {
        guard let message = dlerror() else { return "unknown error" }
        return String(cString: message)
    }
}

/// A library that could not be loaded, or a symbol it lacks, with the dynamic linker's text:
/// "dlopen libinput.so.10 failed: libinput.so.10: cannot open shared object file: ...".
public struct DynamicLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let library: String
    /// The missing symbol; nil when the library itself did not load.
    public let symbol: String?
    /// dlerror(3)'s message.
    public let reason: String

    public init(library: String, symbol: String?, reason: String) {
        self.library = library
        self.symbol = symbol
        self.reason = reason
    }

    public var description: String {
        if let symbol { return "dlsym \(symbol) in \(library) failed: \(reason)" }
        return "dlopen \(library) failed: \(reason)"
    }
}
