import FoldcamPlatform
import Glibc

/// Where clients find the daemon: `$FOLDCAM_SOCKET`, else `/run/foldcam/foldcam.sock` when
/// the system daemon runs (or as root), else `$XDG_RUNTIME_DIR/foldcam.sock`.
public enum FoldcamSocket {
    public static var defaultPath: String {
        var environment: [String: String] = [:]
        for name in ["FOLDCAM_SOCKET", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return SocketLocation.clientPath(environment: environment)
    }
}
