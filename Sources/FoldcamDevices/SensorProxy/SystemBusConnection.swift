import FoldcamPlatform

/// One connection to the system bus, used on the device thread only: method calls that end
/// within a deadline, and signal matches dispatched when `process` runs (the owner watches
/// `descriptor` in its event loop). Closed on deinit.
final class SystemBusConnection {
    /// An absolute deadline for a blocking exchange: the device thread must never wait on the
    /// bus longer than this (sd-bus's own default is 25 s a call, 90 s to authenticate).
    struct Deadline {
        let nanoseconds: UInt64

        init(microseconds: UInt64) { nanoseconds = MonotonicClock.nanoseconds + microseconds * 1000 }

        func remainingMicroseconds() throws(SystemBus.Failure) -> UInt64 {
            let now = MonotonicClock.nanoseconds
            guard now < nanoseconds else { throw SystemBus.Failure(call: "waiting for the system bus", errno: .timedOut) }
            return max((nanoseconds - now) / 1000, 1)
        }
    }

    /// A message that is unreferenced when dropped.
    final class Message {
        let api: SystemBus
        let pointer: OpaquePointer?
        init(_ api: SystemBus, _ pointer: OpaquePointer?) {
            self.api = api
            self.pointer = pointer
        }
        deinit { _ = api.messageUnref(pointer) }

        func readString() throws(SystemBus.Failure) -> String {
            var text: UnsafePointer<CChar>?
            try api.check("sd_bus_message_read_basic", api.readBasic(pointer, CChar(UInt8(ascii: "s")), &text))
            return text.map { String(cString: $0) } ?? ""
        }

        /// False at the end of the enclosing array.
        func enter(_ type: Character, _ contents: String) throws(SystemBus.Failure) -> Bool {
            let entered = contents.withCString { api.enterContainer(pointer, CChar(type.asciiValue ?? 0), $0) }
            try api.check("sd_bus_message_enter_container", entered)
            return entered > 0
        }

        func exit() throws(SystemBus.Failure) {
            try api.check("sd_bus_message_exit_container", api.exitContainer(pointer))
        }

        func skip(_ types: String) throws(SystemBus.Failure) {
            try api.check("sd_bus_message_skip", types.withCString { api.skip(pointer, $0) })
        }
    }

    /// What a match calls back with; kept alive by the connection.
    private final class MatchHandler {
        let api: SystemBus
        let body: (Message) -> Void
        init(_ api: SystemBus, _ body: @escaping (Message) -> Void) {
            self.api = api
            self.body = body
        }
    }

    let api: SystemBus
    private let bus: OpaquePointer?
    private var slots: [OpaquePointer?] = []
    private var handlers: [MatchHandler] = []
    /// The bus socket, borrowed from sd-bus for the owner's event loop (sd-bus closes it).
    let descriptor: FileDescriptor

    private init(_ api: SystemBus, _ bus: OpaquePointer?) throws(SystemBus.Failure) {
        self.api = api
        self.bus = bus
        let fd = api.getFD(bus)
        if fd < 0 { _ = api.busFlushCloseUnref(bus) }
        try api.check("sd_bus_get_fd", fd)
        descriptor = FileDescriptor.borrowing(fd, subject: "the system bus")
    }

    deinit {
        for slot in slots { _ = api.slotUnref(slot) }
        _ = api.busFlushCloseUnref(bus)
    }

    /// Connects, authenticates and says Hello within the deadline (sd_bus_open_system only
    /// starts them; driving them here keeps the wait bounded).
    static func open(_ api: SystemBus, deadline: Deadline) throws(SystemBus.Failure) -> SystemBusConnection {
        var bus: OpaquePointer?
        try api.check("sd_bus_open_system", api.openSystem(&bus))
        let connection = try SystemBusConnection(api, bus)
        while true {
            let ready = api.isReady(bus)
            try api.check("sd_bus_is_ready", ready)
            if ready > 0 { return connection }
            let progressed = api.process(bus, nil)
            try api.check("sd_bus_process", progressed)
            if progressed == 0 { try api.check("sd_bus_wait", api.wait(bus, try deadline.remainingMicroseconds())) }
        }
    }

    /// A method call with string arguments, answered within the deadline.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String, arguments: [String] = [], deadline: Deadline) throws(SystemBus.Failure) -> Message {
        var raw: OpaquePointer?
        try api.check("sd_bus_message_new_method_call \(member)", api.newMethodCall(bus, &raw, destination, path, interface, member))
        let message = Message(api, raw)
        for argument in arguments {
            try api.check("sd_bus_message_append_basic", argument.withCString { api.appendBasic(raw, CChar(UInt8(ascii: "s")), $0) })
        }
        var reply: OpaquePointer?
        try api.check("sd_bus_call \(member)", api.call(bus, raw, try deadline.remainingMicroseconds(), nil, &reply))
        _ = message
        return Message(api, reply)
    }

    /// Adds a match rule; `body` runs from `process` for each matching message. The AddMatch
    /// call itself is sent without waiting for its answer.
    func addMatch(_ rule: String, _ body: @escaping (Message) -> Void) throws(SystemBus.Failure) {
        let handler = MatchHandler(api, body)
        var slot: OpaquePointer?
        let callback: SystemBus.Handler = { message, userdata, _ in
            guard let userdata else { return 0 }
            let handler = Unmanaged<MatchHandler>.fromOpaque(userdata).takeUnretainedValue()
            // The message is borrowed for the call: take a reference for the wrapper to drop.
            handler.body(Message(handler.api, handler.api.messageRef(message)))
            return 0
        }
        try api.check("sd_bus_add_match_async", rule.withCString {
            api.addMatchAsync(bus, &slot, $0, callback, nil, Unmanaged.passUnretained(handler).toOpaque())
        })
        handlers.append(handler)
        slots.append(slot)
        try api.check("sd_bus_flush", api.flush(bus))
    }

    /// Handles everything that has arrived (matches run from here); never waits.
    func process() throws(SystemBus.Failure) {
        while true {
            let progressed = api.process(bus, nil)
            try api.check("sd_bus_process", progressed)
            if progressed == 0 { return }
        }
    }
}
