import FoldcamPlatform

/// Where clients find the daemon: `$FOLDCAM_SOCKET`, else `/run/foldcam/foldcam.sock` when
/// the system daemon runs (or as root), else `$XDG_RUNTIME_DIR/foldcam.sock`.
public enum FoldcamSocket {
    /// The system daemon's socket.
    public static let systemPath = SocketLocation.systemPath

    public static var defaultPath: String {
        SocketLocation.clientPath(environment: ProcessEnvironment.current)
    }
}
