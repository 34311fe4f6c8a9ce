/// The command line that asks a compositor, through its own tool, for one change. Pure: the
/// follower runs what this returns (ToolProcess), one command per change.
///
/// Rotation directions: foldcam's transform turns the content clockwise as the viewer sees
/// it. sway's `transform` is clockwise too (sway inverts the Wayland value: swaywm/sway#4996).
/// `wlr-randr`, Hyprland and mutter take the wl_output value, which the Wayland protocol
/// defines counter-clockwise, so 90 and 270 swap. KScreen's `right` is a clockwise quarter
/// turn and `left` a counter-clockwise one (the RandR names).
public enum CompositorCommands {
    /// nil for GNOME: its call needs the current layout (`GnomeDisplayConfig`).
    public static func argv(_ action: FollowAction, compositor: Compositor) -> [String]? {
        let output = action.output
        // swaymsg joins its words into one sway command: a name with spaces (sway's
        // "make model serial" form) must be quoted there.
        let swayOutput = output.contains(" ") ? "\"\(output)\"" : output
        switch (compositor, action.change) {
        // `-r`: sway answers in JSON (`[{"success": true}]`), which follow prints.
        case let (.sway, .transform(degrees)):
            return ["swaymsg", "-r", "output", swayOutput, "transform", degrees == 0 ? "normal" : String(degrees)]
        case let (.sway, .power(on)):
            // `power` is sway 1.9's name; `dpms` is understood by 1.7 to 1.10.
            return ["swaymsg", "-r", "output", swayOutput, "dpms", on ? "on" : "off"]
        case let (.wlroots, .transform(degrees)):
            let value = counterClockwise(degrees)
            return ["wlr-randr", "--output", output, "--transform", value == 0 ? "normal" : String(value)]
        case let (.wlroots, .power(on)):
            return ["wlr-randr", "--output", output, on ? "--on" : "--off"]
        case let (.kde, .transform(degrees)):
            return ["kscreen-doctor", "output.\(output).rotation.\(kscreenRotation(degrees))"]
        case let (.kde, .power(on)):
            return ["kscreen-doctor", "output.\(output).\(on ? "enable" : "disable")"]
        case let (.hyprland, .transform(degrees)):
            // Keeps the monitor's preferred mode, automatic position and scale 1: the monitor
            // rule is replaced whole (hyprctl has no transform-only keyword).
            return ["hyprctl", "keyword", "monitor", "\(output),preferred,auto,1,transform,\(counterClockwise(degrees) / 90)"]
        case let (.hyprland, .power(on)):
            return ["hyprctl", "dispatch", "dpms", on ? "on" : "off", output]
        case (.gnome, _):
            return nil
        }
    }

    /// Characters no compositor's command syntax can carry in an output name: sway's command
    /// separators and quotes, Hyprland's monitor-rule commas, control characters.
    public static func unusableCharacter(in output: String) -> Character? {
        output.first { ";,\"'".contains($0) || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
    }

    /// A clockwise quarter turn as the counter-clockwise wl_output value.
    static func counterClockwise(_ degrees: Int) -> Int { (360 - degrees % 360) % 360 }

    static func kscreenRotation(_ degrees: Int) -> String {
        switch degrees % 360 {
        case 90: return "right"
        case 180: return "inverted"
        case 270: return "left"
        default: return "none"
        }
    }
}

/// mutter's org.gnome.Mutter.DisplayConfig: `ApplyMonitorsConfig` replaces the whole layout,
/// so one change is the current layout (from `GetCurrentState`) with one logical monitor's
/// transform changed, or without the monitor that goes off.
public enum GnomeDisplayConfig {
    public struct LogicalMonitor: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var scale: Double
        /// mutter's transform: 0...3 are counter-clockwise quarter turns (wl_output's values).
        public var transform: Int
        public var primary: Bool
        /// (connector, mode id) of each monitor shown in it.
        public var monitors: [(connector: String, mode: String)]

        public init(x: Int, y: Int, scale: Double, transform: Int, primary: Bool, monitors: [(connector: String, mode: String)]) {
            self.x = x
            self.y = y
            self.scale = scale
            self.transform = transform
            self.primary = primary
            self.monitors = monitors
        }

        public static func == (a: LogicalMonitor, b: LogicalMonitor) -> Bool {
            a.x == b.x && a.y == b.y && a.scale == b.scale && a.transform == b.transform && a.primary == b.primary
                && a.monitors.map(\.connector) == b.monitors.map(\.connector) && a.monitors.map(\.mode) == b.monitors.map(\.mode)
        }
    }

    /// The layout after `action`: the transform of the logical monitor showing the output, or
    /// that monitor removed (off) or added back from `restoring` (on). Nil when the output is
    /// in no logical monitor and there is nothing to restore.
    public static func layout(_ current: [LogicalMonitor], after action: FollowAction, restoring: LogicalMonitor? = nil) -> [LogicalMonitor]? {
        let index = current.firstIndex { $0.monitors.contains { $0.connector == action.output } }
        switch action.change {
        case let .transform(degrees):
            guard let index else { return nil }
            var layout = current
            layout[index].transform = CompositorCommands.counterClockwise(degrees) / 90
            return layout
        case .power(on: false):
            guard let index else { return current }
            var layout = current
            layout.remove(at: index)
            return layout
        case .power(on: true):
            if index != nil { return current }
            guard let restoring else { return nil }
            return current + [restoring]
        }
    }

    /// The `gdbus` command applying `layout` for this session only (method 1: temporary,
    /// reverted by mutter if the session asks; 2 would persist it to monitors.xml).
    public static func applyArgv(serial: UInt32, layout: [LogicalMonitor]) -> [String] {
        let monitors = layout.map { logical in
            let shown = logical.monitors.map { "('\(escaped($0.connector))', '\(escaped($0.mode))', @a{sv} {})" }.joined(separator: ", ")
            return "(\(logical.x), \(logical.y), \(scaleText(logical.scale)), uint32 \(logical.transform), \(logical.primary), [\(shown)])"
        }
        return [
            "gdbus", "call", "--session", "--dest", "org.gnome.Mutter.DisplayConfig",
            "--object-path", "/org/gnome/Mutter/DisplayConfig",
            "--method", "org.gnome.Mutter.DisplayConfig.ApplyMonitorsConfig",
            "uint32 \(serial)", "uint32 1", "@a(iiduba(ssa{sv})) [\(monitors.joined(separator: ", "))]", "@a{sv} {}",
        ]
    }

    /// The `gdbus` command reading the current layout and its serial.
    public static let currentStateArgv = [
        "gdbus", "call", "--session", "--dest", "org.gnome.Mutter.DisplayConfig",
        "--object-path", "/org/gnome/Mutter/DisplayConfig", "--method", "org.gnome.Mutter.DisplayConfig.GetCurrentState",
    ]

    static func escaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
    }

    /// GVariant needs a double to look like one (`1.0`, not `1`).
    static func scaleText(_ scale: Double) -> String {
        let text = String(scale)
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }
}

extension GnomeDisplayConfig {
    /// The serial and logical monitors of a `GetCurrentState` reply, each monitor with its
    /// current mode.
    public static func currentLayout(_ reply: GVariantText) throws(GVariantText.ParseError) -> (serial: UInt32, layout: [LogicalMonitor]) {
        let parts = reply.items
        guard parts.count >= 3, let serial = parts[0].numberValue else {
            throw GVariantText.ParseError(description: "GetCurrentState: expected (serial, monitors, logical monitors, properties)")
        }
        var currentModes: [String: String] = [:]
        for monitor in parts[1].items {
            let fields = monitor.items
            guard fields.count >= 2, let connector = fields[0].items.first?.stringValue else { continue }
            let current = fields[1].items.first { $0.items.last?["is-current"] == .bool(true) }
            if let mode = current?.items.first?.stringValue { currentModes[connector] = mode }
        }
        var layout: [LogicalMonitor] = []
        for logical in parts[2].items {
            let fields = logical.items
            guard fields.count >= 6, let x = fields[0].numberValue, let y = fields[1].numberValue, let scale = fields[2].numberValue,
                  let transform = fields[3].numberValue, let primary = fields[4].boolValue else {
                throw GVariantText.ParseError(description: "GetCurrentState: a logical monitor is not (x, y, scale, transform, primary, monitors, properties)")
            }
            let monitors = fields[5].items.compactMap { spec -> (connector: String, mode: String)? in
                guard let connector = spec.items.first?.stringValue, let mode = currentModes[connector] else { return nil }
                return (connector, mode)
            }
            layout.append(LogicalMonitor(x: Int(x), y: Int(y), scale: scale, transform: Int(transform), primary: primary, monitors: monitors))
        }
        return (UInt32(serial), layout)
    }
}
