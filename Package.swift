// swift-tools-version:6.1
import PackageDescription

// The module graph (enforced by the target graph below); arrows point at what a module uses:
//
//   FoldcamCore                     pure decision core: imports nothing but the standard library
//   FoldcamVideo, FoldcamRender  -> Core                    pure frames / presentation
//   FoldcamPlatform              -> CLinuxShims             the only module that makes system calls
//   FoldcamIO                    -> Core, Platform          logging, rig and config loading, arguments
//   FoldcamV4L2                  -> Platform, CV4L2         the V4L2 vocabulary: one device owner, FourCC,
//                                                           typed formats and controls
//   FoldcamDevices               -> Core, IO, Platform, V4L2, CUdev, CLibInput
//   FoldcamCapture               -> Core, Video, Platform, V4L2, CPNG, CTurboJPEG
//   FoldcamDaemon                -> everything above;  FoldcamClient -> Core, Platform
//   FoldcamPipeWire              -> Core, Video, Client     the PipeWire companion's decisions, no C
//   executables                  -> Daemon / Client / IO (thin); foldcam-pipewire -> PipeWire,
//                                   CPipeWireShim (the only binary that links libpipewire)
//                                   -> CFrameConvert (its one copy, RGB/BGR -> YUYV; pure C)
//
// docs/architecture.md draws the same graph, the threads and the mailboxes between them, the
// services' start order and two walks through the code.
//
// System calls: only FoldcamPlatform imports Glibc and calls the kernel (`Syscall`, `package`
// visibility); the modules above reach it through its owner types (FileDescriptor, PollSet,
// FileContents, V4L2Device, ...). The exceptions, and why:
// - C libraries that make their own system calls, called only from thin owner types: libudev
//   (Devices/Udev), libinput (Devices/Input, loaded with dlopen; its open_restricted callback
//   opens through Syscall), libv4l2 (FoldcamV4L2's V4L2Device with `.libv4l2` access, for
//   probing; loaded with dlopen), libpng (Capture, in memory only; loaded with dlopen),
//   libsystemd's sd-bus (Devices/SensorProxy: whether iio-sensor-proxy owns its bus name;
//   loaded with dlopen, its few non-variadic functions typed in Swift, no header).
// - The benchmark executables (FoldcamBench, FoldcamSocketBench) import Glibc to measure
//   processes: clock_gettime, mallinfo2, spawning, signalling and pinning the processes they
//   time. Their file reads go through Platform.
// - foldcamd/main.swift imports Glibc for exit(3) only. Signals are named by Platform's
//   SignalSource.Signal, so no module above Platform needs their numbers.
// foldcamd's modules import neither _Concurrency nor _StringProcessing (the compiler imports
// both into every module unless told not to): then foldcamd links neither, nor libdispatch and
// _RegexParser with them, which is 1.6 MB of its idle resident memory (docs/benchmarks.md,
// "Idle RSS"). Substring search is FoldcamCore's TextSearch. foldcamctl and the companion,
// which use async, import them in their own modules.
let withoutImplicitRuntimeModules: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-implicit-concurrency-module-import", "-Xfrontend", "-disable-implicit-string-processing-module-import"]),
]

let package = Package(
    name: "foldcam",
    products: [
        .library(name: "FoldcamCore", targets: ["FoldcamCore"]),
        .library(name: "FoldcamClient", targets: ["FoldcamClient"]),
        .executable(name: "foldcamd", targets: ["foldcamd"]),
        .executable(name: "foldcamctl", targets: ["foldcamctl"]),
        .executable(name: "foldcam-pipewire", targets: ["foldcam-pipewire"]),
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
            swiftSettings: withoutImplicitRuntimeModules,
            linkerSettings: [.linkedLibrary("m")],
            plugins: ["EmbedRigPresets"]
        ),
        // Text and SVG presentation of rigs and states (foldcamctl rig render, docs/rigs.md).
        .target(name: "FoldcamRender", dependencies: ["FoldcamCore"], swiftSettings: withoutImplicitRuntimeModules),
        // Frames for the virtual camera: formats, transforms, synthetic sources, the snapshot
        // ring and the switching state machine. Pure Swift, no I/O.
        .target(name: "FoldcamVideo", dependencies: ["FoldcamCore"], swiftSettings: withoutImplicitRuntimeModules),
        // Linux headers the Glibc module lacks (epoll, eventfd, timerfd, signalfd, ucred).
        .systemLibrary(name: "CLinuxShims"),
        // The only module that makes system calls: files, sockets, device nodes, poll/epoll,
        // ioctl, mmap, threads, signals; one errno-carrying error (SystemCallError) with one
        // definition of "the device vanished".
        .target(name: "FoldcamPlatform", dependencies: ["CLinuxShims"], swiftSettings: withoutImplicitRuntimeModules),
        // Logging, rig and config loading, argument parsing: built on Platform's files.
        .target(name: "FoldcamIO", dependencies: ["FoldcamCore", "FoldcamPlatform"], swiftSettings: withoutImplicitRuntimeModules),
        // The V4L2 UAPI and libv4l2 (its VIDIOC_* macros re-exported with a prefix): the one C
        // shim for V4L2. libv4l2's header only (libv4l-dev): pkg-config would link it, and
        // FoldcamV4L2 loads it with dlopen when it first probes a node.
        .systemLibrary(name: "CV4L2"),
        // The V4L2 vocabulary both device modules speak: the one device owner type (kernel calls
        // through Platform, or libv4l2 for probing), its typed formats and controls, and the one
        // pixel-format code (FourCC).
        .target(name: "FoldcamV4L2", dependencies: ["FoldcamPlatform", "CV4L2"], swiftSettings: withoutImplicitRuntimeModules),
        // libudev: the device inventory and hotplug events of FoldcamDevices.
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // libinput's header only (libinput-dev): pkg-config would link it, and FoldcamDevices loads it
        // with dlopen when it reads switches, so simulate mode never maps it and its glib stack.
        .systemLibrary(name: "CLibInput"),
        // Real hardware: cameras (udev inventory + V4L2 probes), switches (libinput), sensors (a
        // table of drivers chosen by what udev says). C library calls stay in thin owner types;
        // only descriptors and InputEvents leave it.
        .target(name: "FoldcamDevices", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamPlatform", "FoldcamV4L2", "CUdev", "CLibInput"], swiftSettings: withoutImplicitRuntimeModules),
        // libpng's simplified API, for snapshots (macros re-exported with a prefix); the header
        // only (libpng-dev): FoldcamCapture loads libpng with dlopen at the first snapshot.
        .systemLibrary(name: "CPNG"),
        // Video I/O: the v4l2loopback producer (mmap capture, loopback output) and PNG snapshots.
        // libjpeg-turbo's TurboJPEG API, for MJPG cameras; the header only (libturbojpeg0-dev):
        // FoldcamCapture loads libturbojpeg with dlopen when a virtual camera decodes MJPG.
        .systemLibrary(name: "CTurboJPEG"),
        .target(name: "FoldcamCapture", dependencies: ["FoldcamVideo", "FoldcamPlatform", "FoldcamV4L2", "FoldcamCore", "CPNG", "CTurboJPEG"], swiftSettings: withoutImplicitRuntimeModules),
        // The daemon: event loop, socket server, request handling. Executables stay thin.
        .target(name: "FoldcamDaemon", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamPlatform", "FoldcamRender", "FoldcamVideo", "FoldcamCapture", "FoldcamDevices"], swiftSettings: withoutImplicitRuntimeModules),
        // The client library kiosk code imports: requests, events, reconnecting direction maps.
        .target(name: "FoldcamClient", dependencies: ["FoldcamCore", "FoldcamPlatform"]),
        // The PipeWire companion (docs/pipewire.md): pure decisions (PipeWireBridge), node
        // properties, camera-node matching. No C: its tests need no libpipewire.
        .target(name: "FoldcamPipeWire", dependencies: ["FoldcamCore", "FoldcamVideo", "FoldcamClient"]),
        // libpipewire-0.3's headers and library. Only CPipeWireShim and foldcam-pipewire depend
        // on it, so only the companion links libpipewire: foldcamd and foldcamctl never do.
        .systemLibrary(name: "CPipeWire", pkgConfig: "libpipewire-0.3", providers: [.apt(["libpipewire-0.3-dev"])]),
        // The SPA pod builders, macros and callback tables Swift cannot call, behind a small
        // non-variadic C API: one connection, camera nodes that forward one input with one copy.
        .target(name: "CPipeWireShim", dependencies: ["CPipeWire", "CFrameConvert"]),
        // The companion's one copy of a frame: a row copy, or RGB/BGR converted to YUYV on the
        // way. Pure C without libpipewire, so its tests need none. Optimised in debug builds too:
        // the e2e guest runs the debug companion, and the loop touches every pixel.
        .target(name: "CFrameConvert", cSettings: [.unsafeFlags(["-O2"])]),
        .executableTarget(name: "foldcamd", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamPlatform", "FoldcamDaemon"], swiftSettings: withoutImplicitRuntimeModules),
        // `foldcamctl report`: what a device model needs, read from sysfs, udev's database, V4L2
        // (kernel ioctls, no libv4l2) and pw-dump; redacted (docs/devices.md).
        .target(name: "FoldcamReport", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamPlatform", "FoldcamV4L2"]),
        // `foldcamctl calibrate` finds and reads the raw sensors through FoldcamDevices (libudev).
        .executableTarget(name: "foldcamctl", dependencies: ["FoldcamCore", "FoldcamPlatform", "FoldcamIO", "FoldcamRender", "FoldcamClient", "FoldcamReport", "FoldcamDevices"]),
        // The user-session companion: publishes a PipeWire camera node per virtual camera and
        // forwards the camera foldcamd decides on (the shell around PipeWireBridge).
        .executableTarget(name: "foldcam-pipewire", dependencies: ["FoldcamPipeWire", "FoldcamCore", "FoldcamVideo", "FoldcamClient", "FoldcamIO", "CPipeWireShim"]),
        // Benchmarks of the decision core (docs/benchmarks.md).
        .executableTarget(name: "FoldcamBench", dependencies: ["FoldcamCore", "FoldcamIO", "FoldcamCapture", "FoldcamPlatform"]),
        // Socket figures: round trip vs an echo server, fan-out to 1,000 subscribers, idle RSS and
        // wake-ups of a running foldcamd (docs/benchmarks.md). Release build only.
        .executableTarget(name: "FoldcamSocketBench", dependencies: ["FoldcamPlatform", "FoldcamIO", "CLinuxShims"]),
        .testTarget(name: "FoldcamCoreTests", dependencies: ["FoldcamCore", "FoldcamRender"]),
        // Shared by the tests that run the real executables: child processes, temporary
        // directories, finding the built binaries.
        .target(name: "FoldcamTestSupport", path: "Tests/FoldcamTestSupport"),
        // The client library and foldcamctl against a real foldcamd --simulate (binaries found
        // next to the test bundle).
        .testTarget(name: "FoldcamClientTests", dependencies: ["FoldcamClient", "FoldcamCore", "FoldcamTestSupport"]),
        .testTarget(name: "FoldcamPipeWireTests", dependencies: ["FoldcamPipeWire", "FoldcamCore", "FoldcamVideo", "CFrameConvert"]),
        .testTarget(name: "FoldcamVideoTests", dependencies: ["FoldcamVideo", "FoldcamCore"]),
        // The system-call funnel on real pipes, socketpairs and temporary files.
        .testTarget(name: "FoldcamPlatformTests", dependencies: ["FoldcamPlatform", "FoldcamIO"]),
        // The shared command-line parser and its generated usage text.
        .testTarget(name: "FoldcamIOTests", dependencies: ["FoldcamIO", "FoldcamTestSupport"]),
        .testTarget(name: "FoldcamCaptureTests", dependencies: ["FoldcamCapture", "FoldcamCore", "FoldcamVideo", "FoldcamPlatform", "FoldcamV4L2", "FoldcamTestSupport"]),
        // End-to-end: runs the built foldcamd binary (found next to the test bundle) as a child
        // process and talks to it over its real Unix socket.
        .testTarget(name: "FoldcamDaemonTests", dependencies: ["FoldcamCore", "FoldcamPlatform", "FoldcamTestSupport"]),
        // The daemon's wiring without a process: routing, the service group's start and stop order.
        .testTarget(name: "FoldcamDaemonUnitTests", dependencies: ["FoldcamDaemon", "FoldcamCore", "FoldcamIO", "FoldcamCapture"]),
        .testTarget(name: "FoldcamDevicesTests", dependencies: ["FoldcamDevices", "FoldcamCore", "FoldcamPlatform", "FoldcamV4L2"]),
    ],
    swiftLanguageModes: [.v6]
)
