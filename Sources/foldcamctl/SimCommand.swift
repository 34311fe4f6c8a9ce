import FoldcamClient
import FoldcamCore
import FoldcamIO

/// `foldcamctl sim ...`: move the simulated daemon's sensors, switches and cameras.
enum SimCommand {
    static func run(_ arguments: inout ParsedArguments, _ daemon: DaemonContext) async throws {
        let (method, params) = try request(&arguments)
        try arguments.finish()
        let posture = try await daemon.call(method, .object(params))
        if daemon.json { return daemon.printJSON(posture) }
        daemon.emit("\(method): posture \(posture["posture"]?.stringValue ?? "?"), hinges \(Describe.hinges(posture["hinges"])), viewed display \(Describe.viewed(posture["viewedDisplay"], pinned: posture["pinnedDisplay"]))")
    }

    /// The method and params a `sim` command line names.
    static func request(_ arguments: inout ParsedArguments) throws -> (String, [(String, JSONValue)]) {
        switch arguments.command {
        case "sim hinge":
            let hinge = try arguments.requirePositional("hinge id")
            return ("simulate.hinge", [("hinge", .string(hinge)), ("angle", .double(try arguments.requireNumber("angle in degrees")))])
        case "sim switch":
            let name = try arguments.requireChoice("switch", ["lid", "tabletMode"])
            let state = try arguments.requireChoice("\(name) state", name == "lid" ? ["closed", "open"] : ["on", "off"])
            return ("simulate.switch", [("switch", .string(name)), ("state", .string(state))])
        case "sim gravity":
            return ("simulate.gravity", [("vector", try vector(&arguments))])
        case "sim accelerometer":
            let sensor = try arguments.requirePositional("accelerometer id")
            return ("simulate.accelerometer", [("accelerometer", .string(sensor)), ("reading", try vector(&arguments))])
        case "sim plug":
            return ("simulate.plug", [("camera", .string(try arguments.requirePositional("camera id")))])
        case "sim unplug":
            return ("simulate.unplug", [("camera", .string(try arguments.requirePositional("camera id")))])
        case "sim busy":
            let camera = try arguments.requirePositional("camera id")
            return ("simulate.busy", [("camera", .string(camera)), ("busy", .bool(try arguments.requireChoice("busy", ["on", "off"]) == "on"))])
        case "sim sweep":
            return ("simulate.sweep", [("running", .bool(try arguments.requireChoice("sweep", ["on", "off"]) == "on"))])
        case let command:
            preconditionFailure("\(command) is not a sim command")
        }
    }

    private static func vector(_ arguments: inout ParsedArguments) throws -> JSONValue {
        .array([
            .double(try arguments.requireNumber("x")), .double(try arguments.requireNumber("y")), .double(try arguments.requireNumber("z")),
        ])
    }
}
