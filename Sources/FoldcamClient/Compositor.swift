/// The compositors `foldcamctl follow` can drive, each through its own tool.
public enum Compositor: String, Sendable, CaseIterable {
    /// sway, through `swaymsg`.
    case sway
    /// Any other wlroots compositor that speaks wlr-output-management, through `wlr-randr`.
    case wlroots
    /// KDE Plasma (KWin), through `kscreen-doctor`.
    case kde
    /// GNOME (mutter), through org.gnome.Mutter.DisplayConfig with `gdbus`.
    case gnome
    /// Hyprland, through `hyprctl`.
    case hyprland

    /// The compositor of the session this process runs in, from the variables each one sets;
    /// nil when none says so (then `--compositor` must).
    public static func detect(environment: [String: String]) -> Compositor? {
        func set(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        if set("SWAYSOCK") { return .sway }
        if set("HYPRLAND_INSTANCE_SIGNATURE") { return .hyprland }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() }
        if desktops.contains("kde") { return .kde }
        if desktops.contains("gnome") { return .gnome }
        if set("WAYLAND_DISPLAY") { return .wlroots }
        return nil
    }
}
