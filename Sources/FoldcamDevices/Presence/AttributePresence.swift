import FoldcamCore

/// Presence inputs read from a platform device's sysfs attribute (the X1 Fold's
/// `thinkpad_acpi/keyboard_attached_on_screen`, on a kernel that has it): polled, because no
/// driver that provides such an attribute is known to call sysfs_notify (the one published
/// user, a GNOME extension, polls it once a second too). Each attribute is opened once
/// (O_NOFOLLOW|O_NONBLOCK) and read with pread; a read that fails stops the polling of that
/// attribute until its device comes back (udev `add`/`bind`/`change` of the platform device).
/// Events only on a change; the debounce is the engine's. Device thread only.
final class AttributePresence {
    static let pollPeriod: Duration = .seconds(1)

    private struct Watched {
        let input: Int
        let attribute: KeptOpenAttribute
        /// What the attribute said last; nil while it is not there (never read, or gone).
        var present: Bool?
    }

    private let inputs: [PresenceInput]
    private var watched: [Watched]

    /// `platform`: where platform devices are (tests give a directory of their own).
    init(rig: Rig, platform: String = "/sys/devices/platform") {
        inputs = rig.presence
        watched = rig.presence.indices.compactMap { index in
            rig.presence[index].attribute.map {
                Watched(input: index, attribute: KeptOpenAttribute(syspath: "\(platform)/\($0.device)", name: $0.name, guarded: true), present: nil)
            }
        }
    }

    var isEmpty: Bool { watched.isEmpty }
    /// Whether any attribute is there now: only then is the poll timer armed.
    var anyReadable: Bool { watched.contains { $0.present != nil } }
    /// The platform devices whose uevents make an absent attribute worth looking for again.
    var devices: Set<String> { Set(watched.compactMap { inputs[$0.input].attribute?.device }) }

    /// Reads every attribute (`device` nil) or those of one platform device (at start, and on
    /// its uevents): events for the inputs whose value changed, log lines for attributes that
    /// appeared or went.
    func read(device: String? = nil) -> (events: [InputEvent], notes: [String]) {
        read { attribute, _ in device == nil || attribute.device == device }
    }

    /// The poll tick: only the attributes that are there now (one that is not is looked for
    /// again on its device's uevents, not on every tick).
    func poll() -> (events: [InputEvent], notes: [String]) {
        read { _, watched in watched.present != nil }
    }

    private func read(_ selected: (PlatformAttribute, Watched) -> Bool) -> (events: [InputEvent], notes: [String]) {
        var events: [InputEvent] = []
        var notes: [String] = []
        for index in watched.indices {
            let input = watched[index].input
            guard let attribute = inputs[input].attribute, selected(attribute, watched[index]) else { continue }
            let before = watched[index].present
            let text: String
            do {
                text = try watched[index].attribute.read()
            } catch {
                if before != nil { notes.append("presence input \(inputs[input].id): \(attribute.path) went (\(error)); taken as absent") }
                watched[index].present = nil
                if before == true { events.append(.presence(input: input, present: false)) }
                continue
            }
            // Not an integer: absent, said once.
            let now = PlatformAttribute.present(text) ?? false
            if PlatformAttribute.present(text) == nil, before != false {
                notes.append("presence input \(inputs[input].id): \(attribute.path) reads \(ClientText.quoted(text.trimmingWhitespace)), not an integer; taken as absent")
            }
            if before == nil { notes.append("presence input \(inputs[input].id): following \(attribute.path), read every \(Self.pollPeriod.components.seconds) s") }
            watched[index].present = now
            if now != (before ?? false) { events.append(.presence(input: input, present: now)) }
        }
        return (events, notes)
    }

    /// Lines for the log naming what changed.
    func describe(_ events: [InputEvent]) -> [String] {
        events.compactMap { event in
            guard case let .presence(input, isPresent) = event, let attribute = inputs[input].attribute else { return nil }
            return "presence input \(inputs[input].id): \(attribute.path) says \(isPresent ? "present" : "absent")"
        }
    }
}
