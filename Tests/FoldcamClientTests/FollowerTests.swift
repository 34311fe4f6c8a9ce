import FoldcamClient
import FoldcamCore
import Testing

@Suite struct FollowerTests {
    static func screens(_ displays: [(String, Int?, Bool, String?)]) -> JSONValue {
        .object([("displays", .object(displays.map { id, transform, on, output in
            var members: [(String, JSONValue)] = [("rotation", transform.map { .int($0) } ?? .null), ("transform", transform.map { .int($0) } ?? .null), ("on", .bool(on))]
            if let output { members.append(("output", .string(output))) }
            return (id, .object(members))
        }))])
    }

    @Test func outputsComeFromTheOptionsElseFromTheDaemon() {
        let value = Self.screens([("top", 90, true, "eDP-1"), ("bottom", 90, true, nil), ("third", 0, true, nil), ("fourth", 0, true, "DSI-1")])
        let (targets, unmapped) = ScreenTarget.parse(value, outputs: ["top": "HEADLESS-1", "bottom": "eDP-2"])
        #expect(targets == [
            ScreenTarget(display: "top", output: "HEADLESS-1", transform: 90, on: true),
            ScreenTarget(display: "bottom", output: "eDP-2", transform: 90, on: true),
            ScreenTarget(display: "fourth", output: "DSI-1", transform: 0, on: true),
        ])
        #expect(unmapped == ["third"])
    }

    /// One action per change; the same advice again asks nothing; an output going off gets no
    /// transform until it is on again, and then is switched on before it turns.
    @Test func oneCommandPerChangeNeverRepeated() {
        var follower = ScreenFollower()
        func step(_ top: (Int?, Bool), _ bottom: (Int?, Bool)) -> [String] {
            follower.update([
                ScreenTarget(display: "top", output: "A", transform: top.0, on: top.1),
                ScreenTarget(display: "bottom", output: "B", transform: bottom.0, on: bottom.1),
            ]).map { action in
                switch action.change {
                case let .power(on): "\(action.output) \(on ? "on" : "off")"
                case let .transform(degrees): "\(action.output) \(degrees)"
                }
            }
        }
        #expect(step((nil, true), (nil, true)) == ["A on", "B on"])
        #expect(step((nil, true), (nil, true)) == [])
        #expect(step((0, true), (0, true)) == ["A 0", "B 0"])
        #expect(step((90, true), (90, true)) == ["A 90", "B 90"])
        #expect(step((90, true), (90, true)) == [])
        #expect(step((90, true), (90, false)) == ["B off"])
        #expect(step((180, true), (180, false)) == ["A 180"])
        #expect(step((180, true), (180, true)) == ["B on", "B 180"])
    }

    @Test func commandsPerCompositor() {
        let turn = FollowAction(display: "top", output: "eDP-1", change: .transform(90))
        let off = FollowAction(display: "top", output: "eDP-1", change: .power(on: false))
        let table: [(Compositor, [String]?, [String]?)] = [
            (.sway, ["swaymsg", "-r", "output", "eDP-1", "transform", "90"], ["swaymsg", "-r", "output", "eDP-1", "dpms", "off"]),
            (.wlroots, ["wlr-randr", "--output", "eDP-1", "--transform", "270"], ["wlr-randr", "--output", "eDP-1", "--off"]),
            (.kde, ["kscreen-doctor", "output.eDP-1.rotation.right"], ["kscreen-doctor", "output.eDP-1.disable"]),
            (.hyprland, ["hyprctl", "keyword", "monitor", "eDP-1,preferred,auto,1,transform,3"], ["hyprctl", "dispatch", "dpms", "off", "eDP-1"]),
            (.gnome, nil, nil),
        ]
        for (compositor, transform, power) in table {
            #expect(CompositorCommands.argv(turn, compositor: compositor) == transform, "\(compositor)")
            #expect(CompositorCommands.argv(off, compositor: compositor) == power, "\(compositor)")
        }
        let normal = FollowAction(display: "top", output: "HEADLESS-1", change: .transform(0))
        #expect(CompositorCommands.argv(normal, compositor: .sway) == ["swaymsg", "-r", "output", "HEADLESS-1", "transform", "normal"])
        let upsideDown = FollowAction(display: "top", output: "eDP-1", change: .transform(180))
        #expect(CompositorCommands.argv(upsideDown, compositor: .kde) == ["kscreen-doctor", "output.eDP-1.rotation.inverted"])
        // sway's "make model serial" names: quoted inside the one command swaymsg sends.
        let named = FollowAction(display: "top", output: "Dell Inc. DELL U2720Q 1234", change: .transform(90))
        #expect(CompositorCommands.argv(named, compositor: .sway) == ["swaymsg", "-r", "output", "\"Dell Inc. DELL U2720Q 1234\"", "transform", "90"])
    }

    /// Names no compositor command can carry are found (foldcamctl refuses them in --output).
    @Test func outputNamesWithCommandSyntaxAreFound() {
        #expect(CompositorCommands.unusableCharacter(in: "eDP-1") == nil)
        #expect(CompositorCommands.unusableCharacter(in: "Dell Inc. DELL U2720Q 1234") == nil)
        #expect(CompositorCommands.unusableCharacter(in: "eDP-1; exec rm") == ";")
        #expect(CompositorCommands.unusableCharacter(in: "eDP-1,preferred") == ",")
        #expect(CompositorCommands.unusableCharacter(in: "a\"b") == "\"")
        #expect(CompositorCommands.unusableCharacter(in: "a\nb") == "\n")
    }

    @Test func compositorFromTheEnvironment() {
        let table: [([String: String], Compositor?)] = [
            (["SWAYSOCK": "/run/user/1000/sway-ipc.sock", "WAYLAND_DISPLAY": "wayland-1"], .sway),
            (["HYPRLAND_INSTANCE_SIGNATURE": "abc", "WAYLAND_DISPLAY": "wayland-1"], .hyprland),
            (["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"], .kde),
            (["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0"], .gnome),
            (["WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "river"], .wlroots),
            (["SWAYSOCK": ""], nil),
            ([:], nil),
        ]
        for (environment, expected) in table {
            #expect(Compositor.detect(environment: environment) == expected, "\(environment)")
        }
    }

    /// A Yoga Book–like pair in one logical monitor each, as mutter's GetCurrentState prints it.
    static let gnomeState = """
        (uint32 7, [(('eDP-1', 'BOE', '0x0a1c', '0x00000000'), [('2880x1800@90.000', 2880, 1800, 90.0, 2.0, [1.0, 2.0], {'is-current': <true>, 'is-preferred': <true>}), ('1920x1200@60.000', 1920, 1200, 60.0, 1.0, [1.0], @a{sv} {})], {'is-builtin': <true>, 'display-name': <'Built-in display'>}), (('eDP-2', 'BOE', '0x0a1d', '0x00000000'), [('2880x1800@90.000', 2880, 1800, 90.0, 2.0, [1.0, 2.0], {'is-current': <true>})], @a{sv} {})], [(0, 0, 2.0, uint32 0, true, [('eDP-1', 'BOE', '0x0a1c', '0x00000000')], @a{sv} {}), (0, 900, 2.0, uint32 0, false, [('eDP-2', 'BOE', '0x0a1d', '0x00000000')], @a{sv} {})], {'layout-mode': <uint32 2>, 'supports-changing-layout-mode': <false>})
        """

    @Test func gnomeCallIsTheCurrentLayoutWithOneChange() throws {
        let (serial, layout) = try GnomeDisplayConfig.currentLayout(GVariantText.parse(Self.gnomeState))
        #expect(serial == 7)
        #expect(layout.map { $0.monitors.map(\.connector) } == [["eDP-1"], ["eDP-2"]])
        #expect(layout.map { $0.monitors.map(\.mode) } == [["2880x1800@90.000"], ["2880x1800@90.000"]])

        let turned = try #require(GnomeDisplayConfig.layout(layout, after: FollowAction(display: "bottom", output: "eDP-2", change: .transform(90))))
        #expect(turned.map(\.transform) == [0, 3])
        let argv = GnomeDisplayConfig.applyArgv(serial: serial, layout: turned)
        #expect(Array(argv.prefix(9)) == [
            "gdbus", "call", "--session", "--dest", "org.gnome.Mutter.DisplayConfig",
            "--object-path", "/org/gnome/Mutter/DisplayConfig", "--method", "org.gnome.Mutter.DisplayConfig.ApplyMonitorsConfig",
        ])
        #expect(Array(argv.dropFirst(9)) == [
            "uint32 7", "uint32 1",
            "@a(iiduba(ssa{sv})) [(0, 0, 2.0, uint32 0, true, [('eDP-1', '2880x1800@90.000', @a{sv} {})]), (0, 900, 2.0, uint32 3, false, [('eDP-2', '2880x1800@90.000', @a{sv} {})])]",
            "@a{sv} {}",
        ])
        // What the builder writes, GVariant text reads back.
        let written = try GVariantText.parse(String(argv[11].dropFirst("@a(iiduba(ssa{sv})) ".count)))
        #expect(written.items.count == 2 && written.items[1].items[3] == .number(3))

        let off = FollowAction(display: "bottom", output: "eDP-2", change: .power(on: false))
        let without = try #require(GnomeDisplayConfig.layout(layout, after: off))
        #expect(without.map { $0.monitors.map(\.connector) } == [["eDP-1"]])
        let on = FollowAction(display: "bottom", output: "eDP-2", change: .power(on: true))
        #expect(GnomeDisplayConfig.layout(without, after: on, restoring: layout[1]) == layout)
        #expect(GnomeDisplayConfig.layout(without, after: on) == nil)
    }

    @Test func badGVariantTextIsNamed() {
        #expect(throws: GVariantText.ParseError.self) { try GVariantText.parse("(uint32 7, [") }
        #expect(throws: GVariantText.ParseError.self) { try GVariantText.parse("(1, 2) extra") }
    }
}
