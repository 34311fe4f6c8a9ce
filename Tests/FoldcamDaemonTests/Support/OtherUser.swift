import FoldcamCore
import FoldcamTestSupport
import Glibc

/// Runs programs as another user (`setpriv`), the way a local user with no special rights
/// would reach the daemon. Needs root; CI runs as root.
enum OtherUser {
    /// nobody/nogroup on Debian.
    static let uid: UInt32 = 65534
    static let gid: UInt32 = 65534

    static var available: Bool { getuid() == 0 }

    /// `setpriv` arguments running as `uid` with only the given supplementary groups.
    static func setpriv(uid: UInt32 = uid, gid: UInt32 = gid, groups: [UInt32] = []) -> [String] {
        ["--reuid=\(uid)", "--regid=\(gid)", groups.isEmpty ? "--clear-groups" : "--groups=\(groups.map(String.init).joined(separator: ","))", "--"]
    }

    /// Starts `program arguments…` as another user; output goes to files in `directory`.
    static func start(_ program: String, _ arguments: [String], in directory: TemporaryDirectory, name: String,
                      uid: UInt32 = uid, groups: [UInt32] = [], environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(
            executable: "/usr/bin/setpriv", arguments: setpriv(uid: uid, groups: groups) + [program] + arguments,
            stdoutPath: directory.file("\(name).out"), stderrPath: directory.file("\(name).err"), environment: environment)
    }

    /// A Perl client (perl-base is Essential in Debian): connects, sends each request line
    /// from the arguments and prints each reply line.
    static let requestsScript = #"""
        use strict; use warnings; use IO::Socket::UNIX; $SIG{PIPE} = "IGNORE";
        my $path = shift @ARGV;
        my $socket = IO::Socket::UNIX->new(Peer => $path) or die "connect $path: $!\n";
        $| = 1;
        for my $request (@ARGV) {
            print $socket "$request\n";
            my $reply = <$socket>;
            defined $reply or die "connection closed\n";
            print $reply;
        }
        """#

    /// Opens COUNT connections and says `hello` on each; prints each reply (or refusal) on a
    /// line of its own, then "holding" and keeps them all open until killed.
    static let holderScript = #"""
        use strict; use warnings; use IO::Socket::UNIX; $SIG{PIPE} = "IGNORE";
        my ($path, $count) = @ARGV;
        $| = 1;
        my @held;
        for my $n (1 .. $count) {
            my $socket = IO::Socket::UNIX->new(Peer => $path) or die "connect $path: $!\n";
            print $socket "{\"id\": $n, \"method\": \"hello\"}\n";
            my $reply = <$socket>;
            $reply = "{\"closed\": true}\n" unless defined $reply;
            print $reply;
            push @held, $socket;
        }
        print "holding\n";
        sleep 3600;
        """#

    /// A server that is not foldcamd: listens on PATH and answers every line with a fake
    /// `hello` result; prints "listening" once bound.
    static let impostorScript = #"""
        use strict; use warnings; use IO::Socket::UNIX; $SIG{PIPE} = "IGNORE";
        my $path = shift @ARGV;
        my $server = IO::Socket::UNIX->new(Local => $path, Listen => 5) or die "listen $path: $!\n";
        chmod 0666, $path;
        $| = 1;
        print "listening\n";
        while (my $client = $server->accept) {
            while (my $line = <$client>) {
                my ($id) = $line =~ /"id"\s*:\s*(\d+)/;
                $id //= 0;
                print $client "{\"id\":$id,\"result\":{\"protocol\":1,\"daemon\":\"0.1.0\",\"rig\":\"fake\",\"mode\":\"simulate\"}}\n";
            }
        }
        """#

    /// Writes the scripts above into `directory` (readable by every user) and returns the path
    /// of the one named.
    static func script(_ text: String, named name: String, in directory: TemporaryDirectory) throws -> String {
        try directory.write(name, text)
        return directory.file(name)
    }

    /// Waits until `child` printed a line containing `text` (or exited).
    static func waitForOutput(_ child: ChildProcess, _ text: String, timeout: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if child.stdout.contains(text) { return true }
            if child.hasExited { return child.stdout.contains(text) }
            usleep(10_000)
        }
        return false
    }

    /// The JSON lines a child printed.
    static func replies(_ child: ChildProcess) -> [JSONValue] {
        child.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
    }
}
