import CLibInput
@testable import FoldcamDevices
import FoldcamPlatform
import Testing

/// libinput is loaded at run time: its table must match the installed library (a misspelt symbol
/// would otherwise show only on hardware), and its absence must say what to install.
@Suite struct LibInputLoadingTests {
    /// libinput-dev, needed to build, depends on libinput10: the library is here wherever tests run.
    @Test func everyLibInputCallIsInTheInstalledLibrary() throws {
        let libinput = try LibInput.load()
        #expect(libinput.udevCreateContext(nil, nil, nil) == nil, "a null udev is refused, not a crash")
    }

    @Test func anUnavailableLibInputSaysWhatToInstall() {
        let error = LibInputUnavailable(cause: DynamicLibraryError(library: "libinput.so.10", symbol: nil, reason: "libinput.so.10: cannot open shared object file: No such file or directory"))
        #expect(error.description == "dlopen libinput.so.10 failed: libinput.so.10: cannot open shared object file: No such file or directory (install the libinput10 package to follow switches)")
    }

    @Test func libInputPrioritiesBecomeSyslogPriorities() {
        #expect(LibInputLog.priority(LIBINPUT_LOG_PRIORITY_ERROR) == .error)
        #expect(LibInputLog.priority(LIBINPUT_LOG_PRIORITY_INFO) == .info)
        #expect(LibInputLog.priority(LIBINPUT_LOG_PRIORITY_DEBUG) == .debug)
    }
}
