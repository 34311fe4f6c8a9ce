import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl sim ...`: move the simulated daemon's sensors, switches and cameras.
enum SimCommand {
    static func run(_ arguments: inout CommandLineArguments, _ daemon: DaemonContext) async throws {
        let (method, params) = try request(&arguments)
        try arguments.finish()
        let posture = try await daemon.call(method, .object(params))
        if daemon.json { return daemon.printJSON(posture) }
        daemon.emit("\(method): posture \(posture["posture"]?.stringValue ?? "?"), hinges \(Describe.hinges(posture["hinges"])), viewed display \(Describe.viewed(posture["viewedDisplay"], pinned: posture["pinnedDisplay"]))")
    }

    /// The method and params a `sim` command line names.
    static func request(_ arguments: inout CommandLineArguments) throws -> (String, [(String, JSONValue)]) {
        if arguments.takeSubcommand("hinge") {
            let hinge = try arguments.requirePositional("hinge id")
            return ("simulate.hinge", [("hinge", .string(hinge)), ("angle", .double(try arguments.requireNumber("angle in degrees")))])
        }
        if arguments.takeSubcommand("switch") {
            let name = try arguments.requireChoice("switch", ["lid", "tabletMode"])
            let state = try arguments.requireChoice("\(name) state", name == "lid" ? ["closed", "open"] : ["on", "off"])
            return ("simulate.switch", [("switch", .string(name)), ("state", .string(state))])
        }
        if arguments.takeSubcommand("gravity") {
            return ("simulate.gravity", [("vector", try vector(&arguments))])
        }
        if arguments.takeSubcommand("accelerometer") {
            let sensor = try arguments.requirePositional("accelerometer id")
            return ("simulate.accelerometer", [("accelerometer", .string(sensor)), ("reading", try vector(&arguments))])
        }
        for (word, method) in [("plug", "simulate.plug"), ("unplug", "simulate.unplug")] where arguments.takeSubcommand(word) {
            return (method, [("camera", .string(try arguments.requirePositional("camera id")))])
        }
        if arguments.takeSubcommand("busy") {
            let camera = try arguments.requirePositional("camera id")
            return ("simulate.busy", [("camera", .string(camera)), ("busy", .bool(try arguments.requireChoice("busy", ["on", "off"]) == "on"))])
        }
        if arguments.takeSubcommand("sweep") {
            return ("simulate.sweep", [("running", .bool(try arguments.requireChoice("sweep", ["on", "off"]) == "on"))])
        }
        throw CommandLineArguments.UsageError(description: "sim: expected hinge, switch, gravity, accelerometer, plug, unplug, busy or sweep (see --help)")
    }

    private static func vector(_ arguments: inout CommandLineArguments) throws -> JSONValue {
        .array([
            .double(try arguments.requireNumber("x")), .double(try arguments.requireNumber("y")), .double(try arguments.requireNumber("z")),
        ])
    }
}
