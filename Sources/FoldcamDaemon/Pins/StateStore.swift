import FoldcamCore
import FoldcamIO
import FoldcamPlatform
import Synchronization

/// The state directory (systemd's `StateDirectory=`, or `stateDirectory` in the config): the
/// persisted pin and screen rotations are written there atomically and durably, off the event
/// loop, and read back at start. A file that cannot be used is reported, set aside as
/// `state.json.bad`, and never stops the daemon.
final class StateStore: Sendable {
    let directory: String
    private let log: Log
    /// Writes in the order they were asked for, off the loop (a slow disk never holds a client).
    private let worker: Worker
    /// The newest state not yet taken by the writer (nil: no write waiting).
    private let pending = Mutex<PersistedState?>(nil)

    init(directory: String, log: Log) throws(SystemCallError) {
        self.directory = directory
        self.log = log
        worker = try Worker(name: "foldcam-state")
    }

    var path: String { "\(directory)/\(PersistedState.fileName)" }

    /// What the last run kept; nil when there is nothing to restore (no file yet, or a file
    /// that was reported and set aside).
    func load() -> PersistedState? {
        if let refusal = DirectorySafety.check(directory).refusal {
            log.error("state: not using \(directory): \(refusal); starting without the persisted state, and nothing will be saved")
            return nil
        }
        let bytes: [UInt8]
        do {
            // A FIFO, a link or a file another user wrote is refused (`SafeFile`), like an
            // unreadable one: a forged pin "by uid 0" is never restored.
            bytes = try SafeFile.read(directory: directory, name: PersistedState.fileName, limit: PersistedState.sizeLimit)
        } catch {
            if error == .missing { return nil }
            setAside("\(error)")
            return nil
        }
        do {
            return try PersistedState(decoding: bytes)
        } catch {
            setAside("is not a state file foldcamd wrote: \(error)")
            return nil
        }
    }

    /// Writes `state` (later calls win; each write replaces the whole file). Requests that
    /// come faster than the disk are coalesced: at most one write waits, with the newest state,
    /// so a client repeating setScreenRotation costs no queue that grows.
    func save(_ state: PersistedState) {
        let scheduled = pending.withLock { waiting -> Bool in
            defer { waiting = state }
            return waiting != nil
        }
        if scheduled { return }
        worker.submit { [self] in
            guard let latest = pending.withLock({ waiting -> PersistedState? in
                defer { waiting = nil }
                return waiting
            }) else { return }
            let bytes = Array(latest.json.prettyText.utf8) + [UInt8(ascii: "\n")]
            do {
                if let refusal = DirectorySafety.check(directory).refusal { throw StateDirectoryRefused(description: refusal) }
                try SafeFile.replace(bytes, directory: directory, name: PersistedState.fileName, mode: 0o640, durable: true)
            } catch {
                log.error("state: cannot write \(directory)/\(PersistedState.fileName): \(error); the pin and screen rotations will not survive a restart (check the state directory's owner and space)")
            }
        }
    }

    /// Waits for the writes asked for so far (at stop, so the last change is on disk).
    func flush() { worker.waitForSubmitted() }

    private func setAside(_ text: String) {
        // What is wrong quotes the file (a key, a value, a parse error's context): escaped and cut.
        let problem = ClientText.escaped(text, limit: 512)
        do {
            try SafeFile.setAside(directory: directory, name: PersistedState.fileName, suffix: ".bad")
            log.warning("state: \(path) \(problem); starting without it (kept as \(path).bad; the next pin or screen rotation writes a new one)")
        } catch {
            log.warning("state: \(path) \(problem); starting without it (and cannot move it aside: \(error))")
        }
    }
}

/// The state directory failed `DirectorySafety` at a save.
struct StateDirectoryRefused: Error, CustomStringConvertible {
    var description: String
}
