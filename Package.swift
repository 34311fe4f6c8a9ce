// swift-tools-version:6.1
import PackageDescription

// Dependency direction (enforced by the target graph below):
//   FoldcamCore  <-  FoldcamRender, FoldcamIO  <-  executables
// FoldcamCore is pure value code: it imports nothing but the standard library.
let package = Package(
    name: "foldcam",
    products: [
        .library(name: "FoldcamCore", targets: ["FoldcamCore"]),
        .library(name: "FoldcamClient", targets: ["FoldcamClient"]),
        .executable(name: "foldcamd", targets: ["foldcamd"]),
        .executable(name: "foldcamctl", targets: ["foldcamctl"]),
        .executable(name: "foldcam-bench", targets: ["FoldcamBench"]),
        .executable(name: "foldcam-socket-bench", targets: ["FoldcamSocketBench"]),
    ],
    targets: [
        // Build tool: turns the preset rig JSON files into Swift string literals, so the JSON
        // files stay the single source (users copy them) and the core still needs no file I/O.
        // It also embeds VERSION (the one place the version is written) and scripts/package's
        // REVISION as FoldcamCore's BuildInfo (`--version` of both binaries, `hello`'s "daemon").
        .executableTarget(name: "EmbedRigPresetsTool", path: "Sources/EmbedRigPresetsTool"),
        .plugin(
            name: "EmbedRigPresets",
            capability: .buildTool(),
            dependencies: ["EmbedRigPresetsTool"]
        ),
        .target(
            name: "FoldcamCore",
            exclude: ["Presets"],
            // The standard library's rounding and squareRoot() call into libm; executables that
            // do not import Foundation would otherwise fail to link. This imports nothing.
            linkerSettings: [.linkedLibrary("m")],
            plugins: ["EmbedRigPresets"]
        ),
        .target(name: "FoldcamRender", dependencies: ["FoldcamCore"]),
        // Linux headers the Glibc module lacks (epoll, eventfd, timerfd, signalfd, ucred).
        .systemLibrary(name: "CLinuxShims"),
        // The only module that makes system calls for sockets and event sources.
        .target(name: "FoldcamPlatform", dependencies: ["CLinuxShims"]),
        // The I/O layer: files, logging (later: devices). The only place that reads files.
        .target(name: "FoldcamIO", dependencies: ["FoldcamCore"]),
        // The Debian C libraries the device layer uses; shim.h re-exports their macros with prefixes.
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // libinput's header only (libinput-dev): pkg-config would link it, and FoldcamDevices loads it
        // with dlopen when it reads switches, so simulate mode never maps it and its glib stack.
        .systemLibrary(name: "CLibInput"),
        .systemLibrary(name: "CV4L2", pkgConfig: "libv4l2", providers: [.apt(["libv4l-dev"])]),
        // Real hardware: cameras (libudev + libv4l2), switches (libinput), IIO sensors. C calls
        // stay in its thin owner types; only descriptors and InputEvents leave it.
        .target(name: "FoldcamDevices", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamPlatform", "CUdev", "CLibInput", "CV4L2"]),
        // Frames for the virtual camera: formats, transforms, synthetic sources, the snapshot
        // ring and the switching state machine. Pure Swift, no I/O.
        .target(name: "FoldcamVideo", dependencies: ["FoldcamCore"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // Video I/O: the v4l2loopback producer (mmap capture, loopback output) and PNG snapshots.
        .systemLibrary(name: "CVideoStreaming"),
        .target(name: "FoldcamCapture", dependencies: ["FoldcamVideo", "FoldcamPlatform", "FoldcamCore", "CPNG", "CVideoStreaming", "CLinuxShims"]),
        // The daemon: event loop, socket server, request handling. Executables stay thin.
        .target(name: "FoldcamDaemon", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamPlatform", "FoldcamRender", "FoldcamVideo", "FoldcamCapture", "FoldcamDevices"]),
        // The client library kiosk code imports: requests, events, reconnecting direction maps.
        .target(name: "FoldcamClient", dependencies: ["FoldcamCore", "FoldcamPlatform"]),
        .executableTarget(name: "foldcamd", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamPlatform", "FoldcamDaemon"]),
        .executableTarget(name: "foldcamctl", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamRender", "FoldcamClient"]),
        .executableTarget(name: "FoldcamBench", dependencies: ["FoldcamCore", "FoldcamIO"]),
        // Socket figures: round trip vs an echo server, fan-out to 1,000 subscribers, idle RSS and
        // wake-ups of a running foldcamd (docs/benchmarks.md). Release build only.
        .executableTarget(name: "FoldcamSocketBench", dependencies: ["FoldcamPlatform", "FoldcamIO", "CLinuxShims"]),
        .testTarget(name: "FoldcamCoreTests", dependencies: ["FoldcamCore", "FoldcamRender"]),
        // The client library and foldcamctl against a real foldcamd --simulate (binaries found
        // next to the test bundle).
        // Shared by the tests that run the real executables: child processes, temporary
        // directories, finding the built binaries.
        .target(name: "FoldcamTestSupport", path: "Tests/FoldcamTestSupport"),
        .testTarget(name: "FoldcamClientTests", dependencies: ["FoldcamClient", "FoldcamCore", "FoldcamTestSupport"]),
        .testTarget(name: "FoldcamVideoTests", dependencies: ["FoldcamVideo", "FoldcamCore"]),
        .testTarget(name: "FoldcamCaptureTests", dependencies: ["FoldcamCapture", "FoldcamVideo"]),
        // End-to-end: runs the built foldcamd binary (found next to the test bundle) as a child
        // process and talks to it over its real Unix socket.
        .testTarget(name: "FoldcamDaemonTests", dependencies: ["FoldcamCore", "FoldcamTestSupport"]),
        .testTarget(name: "FoldcamDevicesTests", dependencies: ["FoldcamDevices", "FoldcamCore"]),
    ],
    swiftLanguageModes: [.v6]
)
