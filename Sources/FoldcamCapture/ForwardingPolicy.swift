/// The virtual camera's stream and page decisions, with no I/O (issue 23 item 1): which camera
/// streams into the loopback's pages (zero-copy) and which into its own buffers, when a stream is
/// retired and reopened to move pages, when the mapping is abandoned, which page each write
/// queues, and when a shown page goes back to its camera. Shaped like `SourceSwitcher`: the
/// producer thread feeds it events and carries out the actions it returns, in order.
///
/// Streams are named by camera; an open by its ticket, which is also the lender of the pages it
/// was lent (`LoopbackPageBook`). A camera whose stream feeds another virtual camera as well
/// (`isHosted`) always takes the one-copy path.
struct ForwardingPolicy {
    enum Event: Equatable {
        /// The loopback's output buffers are mapped: `pages` of them (zero-copy runs).
        case mapped(pages: Int)
        /// The daemon wants `camera` streamed from `node`.
        case open(camera: String, node: String)
        case close(camera: String)
        /// The fed camera (nil: the output shows a frame of the daemon's own).
        case feed(camera: String?)
        /// `camera` got its first guest (another virtual camera shares its stream).
        case hosted(camera: String)
        /// An open came back streaming; `lent`: it captures into the pages it was lent.
        case opened(camera: String, ticket: UInt64, lent: Bool, path: ForwardingPath?)
        case openFailed(camera: String, ticket: UInt64)
        /// The camera's stream broke (unplugged, DQBUF failed).
        case streamFailed(camera: String)
        /// A stream that captured into pages stopped: the driver writes them no more. `shown`:
        /// the camera whose frame the output shows.
        case returned(lender: UInt64, shown: String?)
        /// An output tick begins; `loopbackDistinct`: the loopback still uses every page.
        case tick(loopbackDistinct: Bool)
        /// The tick's frame went out; `shown`: the camera whose frame the output shows.
        case written(shown: String?)
        case shutdown
    }

    enum Action: Equatable {
        /// Start streaming `camera` (on the setup thread); `pages`: capture into these.
        case start(camera: String, node: String, ticket: UInt64, pages: [Int]?)
        /// Hand the camera's stream over to be stopped.
        case retire(camera: String)
        /// The stream that came back for `ticket` is the camera's now.
        case adopt(camera: String, ticket: UInt64)
        /// The stream that came back for `ticket` is nobody's: stop it.
        case discard(ticket: UInt64)
        /// An open failed; `report`: the daemon still wants the camera and must hear of it.
        case openFailed(camera: String, report: Bool)
        /// Say how frames reach the loopback (`camera` nil: the output as a whole).
        case report(camera: String?, path: ForwardingPath)
        /// Write frames from now on; the pages stay mapped for streams still capturing into them.
        case abandonMapping
    }

    /// How a write reaches the mapped loopback.
    enum PagePublish: Equatable {
        /// Queue this page as it is (a camera's capture, or the daemon's frame already in it).
        case queue(page: Int)
        /// Copy the daemon's frame into this free page, then queue it.
        case copyInto(page: Int)
        /// No page at all (nothing shown yet and none free).
        case nothing
    }

    struct Stream: Equatable {
        let ticket: UInt64
        let node: String
        let lent: Bool
    }

    struct PendingOpen: Equatable {
        let ticket: UInt64
        let node: String
        /// False once the camera was closed while its open was on its way.
        var wanted = true
    }

    enum Mapping: Equatable {
        case none
        case mapped(LoopbackPageBook)
        /// A reader shrank the loopback: frames are written; lent pages stay mapped.
        case abandoned
    }

    private(set) var mapping = Mapping.none
    private(set) var streams: [String: Stream] = [:]
    private(set) var opening: [String: PendingOpen] = [:]
    /// Nodes whose camera refused to capture into pages: not tried again.
    private(set) var refusedLending: Set<String> = []
    private(set) var feeding: String?
    /// Pages let go, with when they stopped being the loopback's newest frame (nil: not yet,
    /// no newer write has gone out): given back once `ForwardingPlan.lingerIsOver` (`letGo`,
    /// `replaced`, `endLinger`).
    private(set) var lingering: [(page: BufferID, since: UInt64?)] = []
    /// The version of the daemon's own frame the shown page holds, if it holds one.
    private var shownOwnVersion: UInt64?
    private var nextTicket: UInt64 = 0

    init() {}

    var book: LoopbackPageBook? {
        if case let .mapped(book) = mapping { book } else { nil }
    }

    var isMapped: Bool { book != nil }

    /// `isHosted`: whether a camera's stream feeds another virtual camera too.
    mutating func handle(_ event: Event, isHosted: (String) -> Bool = { _ in false }) -> [Action] {
        var actions: [Action] = []
        switch event {
        case let .mapped(pages):
            mapping = .mapped(LoopbackPageBook(count: pages))
        case let .open(camera, node):
            open(camera, node: node, isHosted: isHosted, into: &actions)
        case let .close(camera):
            retire(camera, into: &actions)
            opening[camera]?.wanted = false
            if feeding == camera { feeding = nil }
        case let .feed(camera):
            feeding = camera
        case let .hosted(camera):
            // A shared camera takes the one-copy path for every output: a stream capturing into
            // the pages is reopened into its own buffers.
            guard let stream = streams[camera], stream.lent else { break }
            retire(camera, into: &actions)
            open(camera, node: stream.node, isHosted: isHosted, into: &actions)
        case let .opened(camera, ticket, lent, path):
            // Pages lent for an open the camera refused are free again.
            if !lent { updateBook { $0.cancel(stream: ticket) } }
            guard let pending = opening[camera], pending.ticket == ticket, pending.wanted else {
                // Closed, or superseded, while it was starting.
                if opening[camera]?.ticket == ticket { opening[camera] = nil }
                if lent { updateBook { $0.retire(stream: ticket) } }
                actions.append(.discard(ticket: ticket))
                break
            }
            opening[camera] = nil
            if case .copy(.cameraRefused) = path { refusedLending.insert(pending.node) }
            if let path { actions.append(.report(camera: camera, path: path)) }
            streams[camera] = Stream(ticket: ticket, node: pending.node, lent: lent)
            actions.append(.adopt(camera: camera, ticket: ticket))
        case let .openFailed(camera, ticket):
            updateBook { $0.cancel(stream: ticket) }
            guard let pending = opening[camera], pending.ticket == ticket else { break }
            opening[camera] = nil
            actions.append(.openFailed(camera: camera, report: pending.wanted))
        case let .streamFailed(camera):
            retire(camera, into: &actions)
        case let .returned(lender, shown):
            updateBook { $0.stopped(stream: lender) }
            reopenFedStreamIntoPages(shown: shown, isHosted: isHosted, into: &actions)
        case let .tick(loopbackDistinct):
            if isMapped && !loopbackDistinct {
                mapping = .abandoned
                actions.append(.abandonMapping)
                actions.append(.report(camera: nil, path: .copy(.readerShrankLoopback)))
            }
            reclaimPagesForFedStream(into: &actions)
        case let .written(shown):
            reopenFedStreamIntoPages(shown: shown, isHosted: isHosted, into: &actions)
        case .shutdown:
            for camera in streams.keys.sorted() { retire(camera, into: &actions) }
            opening.removeAll()
        }
        return actions
    }

    // MARK: Pages a write queues

    /// A camera's capture into `page` is shown: queued as it is.
    mutating func publishLent(page: Int) -> PagePublish {
        updateBook { $0.show(page) }
        shownOwnVersion = nil
        return .queue(page: page)
    }

    /// A frame of the daemon's own (`version` names its content; nil: always copy) goes out: into
    /// a free page, or the shown page again when it holds that version already. `published` is
    /// false when no page was free: the shown page is queued again, so readers still get a frame
    /// every tick (the last one, as on any switch).
    mutating func publishOwn(version: UInt64?) -> (publish: PagePublish, published: Bool) {
        guard let book else { return (.nothing, false) }
        if let version, version == shownOwnVersion, let shown = book.shown {
            return (.queue(page: shown), true)
        }
        guard let page = book.pageForOwnFrame() else {
            return (book.shown.map { .queue(page: $0) } ?? .nothing, false)
        }
        updateBook { $0.show(page) }
        shownOwnVersion = version
        return (.copyInto(page: page), true)
    }

    /// Buffers let go at `now` (the output frame changed: a newer frame of a camera, or of the
    /// daemon's own): returns those to give back now. A camera's own buffer goes back at once.
    /// A loopback page (`BufferID.page`) lingers: it may still be the loopback's newest frame
    /// (until the next write goes out, `replaced`), and after that a reader one frame behind may
    /// still read it. Every buffer let go passes here, so no path hands a page back early (a
    /// switch to a camera on its own buffers once did, at once, while readers read it).
    mutating func letGo(_ released: [BufferID], now: UInt64, interval: UInt64) -> [BufferID] {
        var due = endLinger(now: now, interval: interval)
        for buffer in released {
            if buffer.page == nil { due.append(buffer) } else { lingering.append((buffer, nil)) }
        }
        return due
    }

    /// A write went out at `now`: the pages let go before it are no longer the newest frame,
    /// except one queued again by this write (a repeat, when no page was free).
    mutating func replaced(at now: UInt64) {
        let shown = book?.shown
        for entry in lingering.indices where lingering[entry].since == nil && lingering[entry].page.page != shown {
            lingering[entry].since = now
        }
    }

    /// The lingering pages whose time is over at `now` (every output tick asks: a camera that
    /// delivered nothing since must still get them back).
    mutating func endLinger(now: UInt64, interval: UInt64) -> [BufferID] {
        var due: [BufferID] = []
        lingering.removeAll { entry in
            guard let since = entry.since, ForwardingPlan.lingerIsOver(since: since, now: now, interval: interval) else { return false }
            due.append(entry.page)
            return true
        }
        return due
    }

    // MARK: Decisions

    private mutating func open(_ camera: String, node: String, lending: Bool = true, isHosted: (String) -> Bool, into actions: inout [Action]) {
        if let pending = opening[camera], pending.node == node {
            // Already on its way: the same device is taken as it arrives (a second open would
            // find it busy). Under another node it is opened afresh; the stale one is discarded.
            opening[camera]?.wanted = true
            return
        }
        nextTicket += 1
        let ticket = nextTicket
        var pages: [Int]?
        if lending, var book {
            if isHosted(camera) {
                actions.append(.report(camera: camera, path: .copy(.sharedCamera)))
            } else {
                switch book.lend(to: ticket) {
                case let .success(lent):
                    pages = lent
                    mapping = .mapped(book)
                case let .failure(reason):
                    actions.append(.report(camera: camera, path: .copy(reason)))
                }
            }
        }
        opening[camera] = PendingOpen(ticket: ticket, node: node)
        actions.append(.start(camera: camera, node: node, ticket: ticket, pages: pages))
    }

    /// The stream goes to be stopped; its pages wait for `.returned` before reuse.
    private mutating func retire(_ camera: String, into actions: inout [Action]) {
        guard let stream = streams.removeValue(forKey: camera) else { return }
        if stream.lent { updateBook { $0.retire(stream: stream.ticket) } }
        actions.append(.retire(camera: camera))
    }

    /// A camera that is not fed (pre-warming, or still open after a switch) but holds the pages
    /// while the fed one streams into its own buffers leaves the fed one no page to alternate its
    /// copies with: it is reopened on its own buffers, and once its pages are back the fed camera
    /// is reopened into them (`reopenFedStreamIntoPages`).
    private mutating func reclaimPagesForFedStream(into actions: inout [Action]) {
        guard isMapped, let camera = feeding, let fed = streams[camera], !fed.lent else { return }
        for (other, stream) in streams.sorted(by: { $0.key < $1.key }) where other != camera && stream.lent {
            retire(other, into: &actions)
            open(other, node: stream.node, lending: false, isHosted: { _ in false }, into: &actions)
        }
    }

    /// The fed camera streams into its own buffers because the pages were lent to the camera it
    /// replaced: once they are back it is reopened into them. Not before a frame of it is on
    /// screen: its last frame is what repeats while it restarts.
    private mutating func reopenFedStreamIntoPages(shown: String?, isHosted: (String) -> Bool, into actions: inout [Action]) {
        guard let camera = feeding, let stream = streams[camera], !stream.lent, canLend,
              shown == camera, opening[camera] == nil, !refusedLending.contains(stream.node),
              !isHosted(camera) else { return }
        retire(camera, into: &actions)
        open(camera, node: stream.node, isHosted: isHosted, into: &actions)
    }

    /// Whether a camera opened now would get pages.
    var canLend: Bool {
        guard var trial = book else { return false }
        if case .success = trial.lend(to: .max) { return true }
        return false
    }

    private mutating func updateBook(_ change: (inout LoopbackPageBook) -> Void) {
        guard case var .mapped(book) = mapping else { return }
        change(&book)
        mapping = .mapped(book)
    }
}
