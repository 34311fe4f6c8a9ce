import FoldcamCapture
import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// SIGHUP's slow half, off the event loop: reading and validating the config and rig, planning
/// the virtual camera's pool and looking up groups (NSS may block) happen on a thread of their
/// own; the loop keeps serving (and honours SIGTERM) meanwhile and swaps the result in at once.
/// Signals that arrive while one reload is being prepared make one more afterwards.
final class ReloadWorker {
    /// Everything a reload needs, prepared; applying it takes no I/O and no search.
    struct Prepared: Sendable {
        var config: DaemonConfig
        var rig: Rig
        var plan: VirtualCameraPlan
        /// Each configured virtual camera's plan, by id.
        var cameraPlans: [String: VirtualCameraPlan] = [:]
        var controlGroup: Authorizer.Group?
        /// `group` names a group that does not exist.
        var missingGroup: String?
    }

    let results: Mailbox<Result<Prepared, ReloadFailure>>
    private var preparing = false
    private var again = false

    struct ReloadFailure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    init() throws(SystemCallError) {
        results = try Mailbox()
    }

    /// Whether a reload is being prepared now.
    var isPreparing: Bool { preparing }

    /// Notes that another reload is wanted once the one being prepared is applied.
    func requestAnother() { again = true }

    /// Starts preparing a reload; false when no thread could be started.
    func start(_ options: DaemonOptions) -> Bool {
        precondition(!preparing, "one reload at a time")
        preparing = true
        let results = self.results
        let started = OSThread.detach(name: "foldcam-reload") {
            results.post(Self.prepare(options))
        }
        if !started { preparing = false }
        return started
    }

    /// The prepared results, in order. Afterwards `wantsAnother` says whether a signal came
    /// in while they were being prepared.
    func collect() -> [Result<Prepared, ReloadFailure>] {
        let drained = results.drain()
        if !drained.isEmpty { preparing = false }
        return drained
    }

    /// True once, after a reload finished, if another SIGHUP came in meanwhile.
    func takeAnother() -> Bool {
        defer { again = false }
        return again
    }

    static func prepare(_ options: DaemonOptions) -> Result<Prepared, ReloadFailure> {
        do {
            let (config, rig) = try DaemonRunner.loadConfiguration(options)
            var prepared = Prepared(config: config, rig: rig, plan: VirtualCameraPlan(rig: rig, sink: .available))
            // Loading checked every follow against this rig: each resolves.
            let follows = (try? VirtualCameraSpec.resolve(config.virtualCameras, rig: rig)) ?? []
            for (spec, follow) in zip(config.virtualCameras, follows) {
                prepared.cameraPlans[spec.id] = VirtualCameraPlan(rig: rig, follow: follow, sink: .available)
            }
            if let group = config.group {
                if let id = GroupLookup.id(named: group) {
                    prepared.controlGroup = .init(name: group, id: id)
                } else {
                    prepared.missingGroup = group
                }
            }
            return .success(prepared)
        } catch {
            return .failure(ReloadFailure(description: "\(error)"))
        }
    }
}
