import FoldcamCore

/// One display's recommendation from the `screens` topic, tied to the output it is shown on.
public struct ScreenTarget: Sendable, Equatable {
    public var display: String
    public var output: String
    /// Clockwise degrees relative to the panel's native top; nil: no advice yet.
    public var transform: Int?
    public var on: Bool

    public init(display: String, output: String, transform: Int?, on: Bool) {
        self.display = display
        self.output = output
        self.transform = transform
        self.on = on
    }

    /// The targets in a `screens` value. The output is the one `outputs` names
    /// (`--output D=OUTPUT`: the user knows the compositor's name best), else the DRM connector
    /// the daemon publishes for the display; displays with neither are left out and named in
    /// `unmapped`.
    public static func parse(_ screens: JSONValue, outputs: [String: String]) -> (targets: [ScreenTarget], unmapped: [String]) {
        guard case let .object(displays)? = screens["displays"] else { return ([], []) }
        var targets: [ScreenTarget] = []
        var unmapped: [String] = []
        for (id, value) in displays {
            guard let output = outputs[id] ?? value["output"]?.stringValue else {
                unmapped.append(id)
                continue
            }
            let transform: Int? = if case let .int(degrees)? = value["transform"] { degrees } else { nil }
            targets.append(ScreenTarget(display: id, output: output, transform: transform, on: value["on"] != .bool(false)))
        }
        return (targets, unmapped)
    }
}

/// One change to ask the compositor for.
public struct FollowAction: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        case power(on: Bool)
        case transform(Int)
    }

    public var display: String
    public var output: String
    public var change: Change

    public init(display: String, output: String, change: Change) {
        self.display = display
        self.output = output
        self.change = change
    }
}

/// Turns each new `screens` value into the few changes it implies, one action per change:
/// it remembers what it last asked for each output and asks again only when the advice moves
/// (never retried in a loop; a refused request is asked again at the next change). A display
/// turned off gets no transform until it is back on; on its way back it is switched on first.
public struct ScreenFollower: Sendable {
    struct Asked: Equatable {
        var on: Bool?
        var transform: Int?
    }

    private var asked: [String: Asked] = [:]

    public init() {}

    public mutating func update(_ targets: [ScreenTarget]) -> [FollowAction] {
        var actions: [FollowAction] = []
        for target in targets {
            var last = asked[target.output] ?? Asked()
            if last.on != target.on {
                actions.append(FollowAction(display: target.display, output: target.output, change: .power(on: target.on)))
                last.on = target.on
            }
            if target.on, let transform = target.transform, last.transform != transform {
                actions.append(FollowAction(display: target.display, output: target.output, change: .transform(transform)))
                last.transform = transform
            }
            asked[target.output] = last
        }
        return actions
    }
}
