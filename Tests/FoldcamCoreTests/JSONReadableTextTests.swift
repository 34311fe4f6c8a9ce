import FoldcamCore
import Testing

/// The layout `foldcamctl calibrate` writes model files in: the top level opened up, a value that
/// fits its line kept on one line, and the text parsing back to the same value.
@Suite struct JSONReadableTextTests {
    static let cases: [(json: String, width: Int, text: String)] = [
        (#"{"a": 1, "b": [1, 2, 3], "c": {}}"#, 100, "{\n  \"a\": 1,\n  \"b\": [1, 2, 3],\n  \"c\": {}\n}"),
        (#"{"sensors": [{"hinge": "lid", "iioName": "hinge"}]}"#, 100, "{\n  \"sensors\": [{\"hinge\": \"lid\", \"iioName\": \"hinge\"}]\n}"),
        // Too wide for its line: opened one level, the parts that fit stay on one line.
        (#"{"sensors": [{"hinge": "lid", "iioName": "hinge"}]}"#, 42, "{\n  \"sensors\": [\n    {\"hinge\": \"lid\", \"iioName\": \"hinge\"}\n  ]\n}"),
        (#"{"s": "quote \" and \\ kept"}"#, 100, "{\n  \"s\": \"quote \\\" and \\\\ kept\"\n}"),
        (#"[]"#, 100, "[]"),
    ]

    @Test(arguments: cases)
    func laidOutAsModelFilesAre(_ example: (json: String, width: Int, text: String)) throws {
        let value = try JSONParser.parse(example.json)
        let text = value.readableText(width: example.width)
        #expect(text == example.text)
        #expect(try JSONParser.parse(text) == value)
    }

    @Test func everyShippedPresetRoundTrips() throws {
        for id in RigPresets.ids {
            let value = try JSONParser.parse(try #require(RigPresets.json(id)))
            let text = value.readableText()
            #expect(try JSONParser.parse(text) == value, "\(id)")
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 || !$0.contains(", ") }, "\(id): a line over 100 columns that could have been opened")
        }
    }
}
