import FoldcamCapture
import FoldcamIO
import FoldcamPlatform
import Glibc

/// `foldcam-bench mjpeg`: what decoding an MJPG camera costs the virtual camera, per frame at
/// 720p and 1080p, against ffmpeg decoding the same stream in the same run (`ffmpeg -threads 1
/// -f mjpeg -i STREAM -f null -`, its `-benchmark` real time over the frames). The stream is
/// ffmpeg's testsrc2 pattern, 4:2:2 as UVC cameras send it. ffmpeg stops at planar Y'CbCr;
/// foldcam also packs YUYV in limited range, so the ratio includes that pass.
enum MJPEGBench {
    struct Row {
        var width: Int
        var height: Int
        var frames: Int
        var bytesPerFrame: Int
        var foldcam: Stats
        var ffmpegMilliseconds: Double
    }

    static let sizes = [(1280, 720), (1920, 1080)]

    static func run(frames: Int, rounds: Int) throws(BenchError) -> [Row] {
        let directory = try makeDirectory()
        defer { _ = spawn(["/bin/rm", "-rf", directory], stderr: "/dev/null") }
        let decoder: MJPEGDecoder
        do {
            decoder = try MJPEGDecoder()
        } catch {
            throw BenchError("\(error)")
        }
        return try sizes.map { (width, height) throws(BenchError) -> Row in
            let stream = "\(directory)/\(width)x\(height).mjpg"
            Progress.note("mjpeg \(width)x\(height): ffmpeg encodes \(frames) frames")
            guard spawn(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30",
                         "-frames:v", String(frames), "-pix_fmt", "yuvj422p", "-q:v", "4", "-f", "mjpeg", stream], stderr: directory + "/encode.err") == 0 else {
                throw BenchError("ffmpeg could not make the MJPG stream (is ffmpeg installed?): \(text(directory + "/encode.err"))")
            }
            let bytes: [UInt8]
            do {
                bytes = try FileContents.read(stream, limit: 1 << 30)
            } catch {
                throw BenchError("reading \(stream): \(error)")
            }
            let jpegs = split(bytes)
            guard jpegs.count == frames else { throw BenchError("the stream holds \(jpegs.count) JPEGs, not \(frames)") }
            var output = [UInt8](repeating: 0, count: width * height * 2)
            var failure: MJPEGDecoder.Failure?
            let stats = bytes.withUnsafeBytes { all -> Stats in
                output.withUnsafeMutableBytes { out -> Stats in
                    var index = 0
                    return measure(iterations: frames * rounds, warmUp: frames, label: "mjpeg \(width)x\(height) foldcam") {
                        let range = jpegs[index % jpegs.count]
                        index += 1
                        do throws(MJPEGDecoder.Failure) {
                            try decoder.decode(UnsafeRawBufferPointer(rebasing: all[range]), width: width, height: height, into: out)
                        } catch {
                            failure = error
                        }
                    }
                }
            }
            if let failure { throw BenchError("decoding the stream: \(failure)") }
            Progress.note("mjpeg \(width)x\(height): ffmpeg decodes the same stream")
            let log = directory + "/decode.err"
            guard spawn(["ffmpeg", "-nostdin", "-benchmark", "-threads", "1", "-f", "mjpeg", "-i", stream, "-f", "null", "-"], stderr: log) == 0,
                  let seconds = realTime(text(log)) else {
                throw BenchError("ffmpeg could not decode the stream: \(text(log))")
            }
            return Row(width: width, height: height, frames: frames, bytesPerFrame: bytes.count / frames, foldcam: stats,
                       ffmpegMilliseconds: seconds * 1000 / Double(frames))
        }
    }

    static func table(_ rows: [Row]) -> String {
        var load = [0.0, 0.0, 0.0]
        let loaded = load.withUnsafeMutableBufferPointer { getloadavg($0.baseAddress!, 3) } == 3
        var lines = ["MJPG decode per frame (foldcam: libjpeg-turbo to planes, packed YUYV; ffmpeg -threads 1 to planes, same stream, same run)",
                     "\(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs, load average \(loaded ? load.map(fixed).joined(separator: " ") : "unknown")",
                     "size        frames  KiB/frame  foldcam median ms  p99 ms  ffmpeg ms  ratio foldcam/ffmpeg"]
        for row in rows {
            let median = row.foldcam.median / 1e6
            lines.append([
                "\(row.width)x\(row.height)".padded(10), String(row.frames).padded(6), String(row.bytesPerFrame / 1024).padded(9),
                fixed(median).padded(17), fixed(row.foldcam.p99 / 1e6).padded(6), fixed(row.ffmpegMilliseconds).padded(9),
                fixed(median / row.ffmpegMilliseconds),
            ].joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }

    /// Byte ranges of the JPEGs in a concatenated MJPG stream: each starts with SOI (FF D8) at
    /// the start or just after an EOI (FF D9).
    static func split(_ bytes: [UInt8]) -> [Range<Int>] {
        var starts: [Int] = []
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF && bytes[index + 1] == 0xD8 && (index == 0 || (index >= 2 && bytes[index - 2] == 0xFF && bytes[index - 1] == 0xD9)) {
                starts.append(index)
            }
            index += 1
        }
        return starts.indices.map { starts[$0]..<(($0 + 1 < starts.count) ? starts[$0 + 1] : bytes.count) }
    }

    /// ffmpeg -benchmark's "bench: utime=0.5s stime=0.0s rtime=0.6s".
    static func realTime(_ log: String) -> Double? {
        guard let range = log.firstRange(of: "rtime=") else { return nil }
        return Double(log[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    static func fixed(_ value: Double) -> String {
        let hundredths = (value * 100).rounded() / 100
        return String(hundredths)
    }

    private static func makeDirectory() throws(BenchError) -> String {
        var template = Array("/tmp/foldcam-bench-mjpeg.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { throw BenchError("mkdtemp failed") }
        return String(cString: made)
    }

    private static func text(_ path: String) -> String {
        (try? FileContents.read(path, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Runs `arguments` (searched in PATH) with stdin and stdout on /dev/null, stderr to a file; its exit status.
    private static func spawn(_ arguments: [String], stderr: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        guard posix_spawnp(&child, arguments[0], &actions, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
