import FoldcamCore

/// One DRM connector as sysfs shows it (/sys/class/drm/cardK-NAME): the plain value
/// `OutputTracker` works on, and what tests build by hand.
public struct ConnectorRecord: Sendable, Equatable {
    /// `card0`.
    public var card: String
    /// `eDP-1`: the name compositors give the output.
    public var name: String
    public var state: OutputState
    public var edid: EDIDIdentity?
    /// The connector's `panel orientation` as a clockwise mount rotation, where read.
    public var panelOrientation: Int?

    public init(card: String, name: String, state: OutputState, edid: EDIDIdentity? = nil, panelOrientation: Int? = nil) {
        self.card = card
        self.name = name
        self.state = state
        self.edid = edid
        self.panelOrientation = panelOrientation
    }

    /// Splits a connector's sysfs name, `card0-eDP-1`, into card and connector; nil for the
    /// cards themselves (`card0`), render nodes and anything else in the drm subsystem.
    public static func split(sysname: String) -> (card: String, name: String)? {
        guard sysname.hasPrefix("card"), let dash = sysname.firstIndex(of: "-") else { return nil }
        let card = String(sysname[..<dash])
        let name = String(sysname[sysname.index(after: dash)...])
        guard card.count > 4, card.dropFirst(4).allSatisfy(\.isNumber), !name.isEmpty else { return nil }
        return (card, name)
    }

    /// The sysfs attributes read per connector.
    static let attributes = ["status", "enabled", "dpms"]
}
