// libFuzzer entry point for every parser foldcam exposes to input it does not control. Built
// and run by Tests/fuzz/run, compiled into one module with the FoldcamCore sources (so no
// `import FoldcamCore`); FOLDCAM_FUZZ_TARGET picks the parser: request, rig, config, scenario.
import Glibc

enum FuzzTarget: String, CaseIterable {
    case request, rig, config, scenario
}

let fuzzTarget: FuzzTarget = {
    guard let name = getenv("FOLDCAM_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        fatalError("set FOLDCAM_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    switch fuzzTarget {
    case .request: fuzzRequest(bytes)
    case .rig: fuzzRig(bytes)
    case .config: fuzzConfig(bytes)
    case .scenario: fuzzScenario(bytes)
    }
    return 0
}

/// Documents are read as UTF-8 text (RigLoader refuses anything else before decoding).
func text(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}

/// A failed decode names at least one problem, each with a message, and never more than the
/// collector keeps plus the line counting the rest.
func checkErrors(_ errors: DocumentErrors, _ what: String) {
    check(!errors.errors.isEmpty, "\(what) refused without an error")
    check(errors.errors.count <= ErrorCollector.maximumKept + 1, "\(what): \(errors.errors.count) errors, more than the cap")
    for error in errors.errors { check(!error.message.isEmpty, "\(what): an error without a message at \(error.path)") }
}

/// Every number in a state or reply is finite: JSON has no spelling for anything else.
func checkFinite(_ value: JSONValue, _ path: String = "") {
    switch value {
    case let .double(number): check(number.isFinite, "non-finite number at \(path)")
    case let .array(elements): for (index, element) in elements.enumerated() { checkFinite(element, "\(path)[\(index)]") }
    case let .object(members): for (key, member) in members { checkFinite(member, "\(path).\(key)") }
    default: break
    }
}
