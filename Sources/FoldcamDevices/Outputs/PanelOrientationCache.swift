/// The kernel's `panel orientation` of each DRM card's connectors, asked once per card
/// appearance: the property is fixed while the card exists, and asking means opening the
/// card's primary node (which can make the opener DRM master, see `DRMPanelOrientation`) and
/// a round of KMS getters, too much for every hotplug uevent. Pure: the scan says which cards
/// it sees and stores what it read.
struct PanelOrientationCache: Sendable {
    /// One appearance of a card: a card that goes and comes back with the same number (a
    /// driver reloaded) is read again because its remove is seen (`forget`) or its absence
    /// is (`keep`); a different GPU taking the number differs in syspath or device number.
    struct Card: Hashable, Sendable {
        var sysname: String
        var syspath: String
        var device: UInt64
    }

    /// Connector name → clockwise mount rotation, per card read; empty when the card has no
    /// such property or could not be asked (not asked again until it reappears).
    private var read: [Card: [String: Int]] = [:]

    /// Whether `card` must be asked: it has not been since it appeared.
    func needsReading(_ card: Card) -> Bool { read[card] == nil }

    mutating func store(_ orientations: [String: Int], for card: Card) { read[card] = orientations }

    /// Drops every card not `present` (a scan saw it gone).
    mutating func keep(only present: some Sequence<Card>) {
        let present = Set(present)
        read = read.filter { present.contains($0.key) }
    }

    /// Drops the card called `sysname` (its remove uevent).
    mutating func forget(sysname: String) {
        read = read.filter { $0.key.sysname != sysname }
    }

    /// The orientations read for the present card called `sysname`.
    func orientations(of sysname: String) -> [String: Int] {
        read.first { $0.key.sysname == sysname }?.value ?? [:]
    }

    /// How many cards are held (for tests).
    var count: Int { read.count }
}
