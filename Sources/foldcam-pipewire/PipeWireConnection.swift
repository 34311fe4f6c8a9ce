import CPipeWireShim
import FoldcamClient
import FoldcamCore
import FoldcamPipeWire
import FoldcamVideo

/// What the companion's loop hears: the daemon's feed, and PipeWire's thread.
enum CompanionEvent: Sendable {
    case daemon(FoldcamFeedUpdate)
    case nodeAdded(CameraNode)
    case nodeRemoved(UInt32)
    case streaming(virtualCamera: String, Bool)
    /// The input stream to camera node `node` (its target) delivered its first frame.
    case inputDelivered(virtualCamera: String, node: String)
    /// The input stream to camera node `node` (its target) failed before its first frame, or
    /// (`stalled`) sent none for the stall bound after it: why.
    case inputFailed(virtualCamera: String, node: String, reason: String, stalled: Bool)
    /// A camera node that failed to feed is due to be tried again (`PipeWireBridge.Action.retryLater`).
    case retryDue(node: String, attempt: Int)
    case failed(String)
}

/// Receives the shim's callbacks (on PipeWire's thread) and queues them for the loop.
final class CompanionEvents: Sendable {
    let continuation: AsyncStream<CompanionEvent>.Continuation
    init(_ continuation: AsyncStream<CompanionEvent>.Continuation) { self.continuation = continuation }
}

/// One virtual camera's node callbacks: the loop needs to know which node changed state.
final class NodeEvents: Sendable {
    let virtualCamera: String
    let events: CompanionEvents
    init(virtualCamera: String, events: CompanionEvents) {
        self.virtualCamera = virtualCamera
        self.events = events
    }
}

/// The owner of the shim's connection: the thread loop, core and registry watch.
final class PipeWireConnection {
    let pointer: OpaquePointer
    private let events: Unmanaged<CompanionEvents>

    init(events sink: CompanionEvents) throws(CompanionError) {
        let events = Unmanaged.passRetained(sink)
        var error = [CChar](repeating: 0, count: 512)
        let connection = fpw_connect(
            { user, id, lines in
                let events = Unmanaged<CompanionEvents>.fromOpaque(user!).takeUnretainedValue()
                events.continuation.yield(.nodeAdded(CameraNode(id: id, propertyLines: String(cString: lines!))))
            },
            { user, id in Unmanaged<CompanionEvents>.fromOpaque(user!).takeUnretainedValue().continuation.yield(.nodeRemoved(id)) },
            { user, message in Unmanaged<CompanionEvents>.fromOpaque(user!).takeUnretainedValue().continuation.yield(.failed(String(cString: message!))) },
            events.toOpaque(), &error, error.count)
        guard let connection else {
            events.release()
            throw .pipewire(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        pointer = connection
        self.events = events
    }

    deinit {
        fpw_disconnect(pointer)
        events.release()
    }

    /// The PipeWire daemon's version ("0.3.65"); "" until its core has said.
    var serverVersion: String {
        var text = [CChar](repeating: 0, count: 64)
        fpw_server_version(pointer, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// One published foldcam node: a fixed format, its placeholder frame, its input.
final class PublishedNode {
    let mode: CameraMode
    private let pointer: OpaquePointer
    private let events: Unmanaged<NodeEvents>

    init(virtualCamera id: String, mode: CameraMode, on connection: PipeWireConnection, events sink: CompanionEvents) throws(CompanionError) {
        guard let format = PixelFormat(rawValue: mode.pixelFormat), format == .yuyv else {
            throw .unsupportedFormat("virtual camera \(ClientText.quoted(id)) runs \(mode); the PipeWire node carries YUYV only so far (set the virtual camera's format to YUYV)")
        }
        let events = Unmanaged.passRetained(NodeEvents(virtualCamera: id, events: sink))
        let (numerator, denominator) = Self.fraction(mode.fps)
        var error = [CChar](repeating: 0, count: 512)
        let node = fpw_node_new(
            connection.pointer, FoldcamNode.propertyLines(virtualCamera: id), fpw_video_format_yuy2(),
            UInt32(mode.width), UInt32(mode.height), 2, numerator, denominator,
            { user, streaming in
                let node = Unmanaged<NodeEvents>.fromOpaque(user!).takeUnretainedValue()
                node.events.continuation.yield(.streaming(virtualCamera: node.virtualCamera, streaming != 0))
            },
            { user, target, event, reason in
                let node = Unmanaged<NodeEvents>.fromOpaque(user!).takeUnretainedValue()
                let (id, target) = (node.virtualCamera, String(cString: target!))
                node.events.continuation.yield(event == FPW_INPUT_DELIVERED ? .inputDelivered(virtualCamera: id, node: target)
                                               : .inputFailed(virtualCamera: id, node: target, reason: String(cString: reason!), stalled: event == FPW_INPUT_STALLED))
            },
            events.toOpaque(), &error, error.count)
        guard let node else {
            events.release()
            throw .pipewire(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.mode = mode
        pointer = node
        self.events = events
        let frame = SyntheticFrames.unavailableFrame(format: format, width: mode.width, height: mode.height, timestamp: 0)
        frame.bytes.withUnsafeBufferPointer { fpw_node_set_placeholder(pointer, $0.baseAddress, $0.count) }
    }

    deinit {
        fpw_node_destroy(pointer)
        events.release()
    }

    /// The new input's frames carry `transform` after whatever residual each one has, from its
    /// first frame on.
    /// `swapRedAndBlue`: the camera's RGB and BGR are named the wrong way round
    /// (`LibcameraColourOrder`). `timeouts`: seconds to agree a format, then again to the first
    /// frame, before the input is reported failed; then the longest gap between frames before it
    /// is reported stalled (`CompanionEvent.inputFailed`).
    func connectInput(_ target: String, transform: VideoTransform, swapRedAndBlue: Bool, timeouts: InputTimeouts) -> Int32 {
        let milliseconds = { (seconds: Double) in UInt32(min(max(seconds * 1000, 1), Double(UInt32.max))) }
        return transform.table.withUnsafeBufferPointer {
            fpw_node_connect_input(pointer, target, $0.baseAddress, swapRedAndBlue ? 1 : 0, milliseconds(timeouts.link), milliseconds(timeouts.stall))
        }
    }
    func disconnectInput() { fpw_node_disconnect_input(pointer) }
    /// The last connected input's transform, after whatever residual each of its frames carries.
    func setTransform(_ transform: VideoTransform) { transform.table.withUnsafeBufferPointer { fpw_node_set_transforms(pointer, $0.baseAddress) } }

    /// Frames forwarded from a camera (of them, converted from RGB or BGR), placeholder frames,
    /// completed input switches.
    var counters: (forwarded: UInt64, converted: UInt64, placeholders: UInt64, switches: UInt64) {
        var forwarded: UInt64 = 0, converted: UInt64 = 0, placeholders: UInt64 = 0, switches: UInt64 = 0
        fpw_node_counters(pointer, &forwarded, &converted, &placeholders, &switches)
        return (forwarded, converted, placeholders, switches)
    }

    /// 30 → 30/1, 29.97 → 2997/100.
    static func fraction(_ fps: Double) -> (UInt32, UInt32) {
        fps == fps.rounded() ? (UInt32(fps), 1) : (UInt32((fps * 100).rounded()), 100)
    }
}

enum CompanionError: Error, CustomStringConvertible {
    case pipewire(String)
    case unsupportedFormat(String)

    var description: String {
        switch self {
        case let .pipewire(message), let .unsupportedFormat(message): message
        }
    }
}
