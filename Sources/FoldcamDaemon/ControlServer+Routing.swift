import FoldcamCore
import FoldcamIO
import FoldcamPlatform

/// Requests: parse, find the method, authorize, route; subscriptions are answered here.
extension ControlServer {
    /// `now` is when the turn began: replies are stamped with it.
    func handleLine(_ line: ArraySlice<UInt8>, _ session: ClientSession, now: MonotonicInstant) {
        switch WireProtocol.parseRequest(line) {
        case let .failure(failure):
            logBadRequest(session, "sent a bad request: \(failure.code.rawValue)")
            metrics.request(.invalid, result: failure.code)
            send(WireProtocol.reply(failure).jsonLine, to: session, now: now)
        case let .success(request):
            // The name is looked up once, for routing and for the metrics label.
            let method = methodLookup.method(named: request.method)
            var newTopics: Set<Topic> = []
            let answer = dispatch(request, method, session, newTopics: &newTopics)
            if let answer {
                // Labels from the method list only: a client's made-up name counts as "unknown".
                metrics.request(method.map { .method($0) } ?? .unknown, result: answer.failureCode)
            }
            switch answer {
            case let .success(.value(result))?: send(WireProtocol.reply(id: request.id, result: result).jsonLine, to: session, now: now)
            case let .success(.encoded(result))?: sendReply(id: request.id, result: result, to: session, now: now)
            case let .failure(failure)?: send(WireProtocol.reply(failure).jsonLine, to: session, now: now)
            case nil: session.owedReplies += 1  // answered later by completeDeferred
            }
            // A new subscriber gets each topic's current value at once, then every change.
            if !newTopics.isEmpty { sendCurrentValues(of: newTopics, to: session) }
        }
    }

    /// Finds the method, asks the authorizer, then routes: the one place that answers "who may
    /// do this?" for every request.
    /// `found` is `Method(rawValue: request.method)`.
    func dispatch(_ request: WireProtocol.Request, _ found: Method?, _ session: ClientSession, newTopics: inout Set<Topic>) -> Result<Answer, WireProtocol.Failure>? {
        guard let handler else {
            return .failure(WireProtocol.Failure(id: request.id, code: .unavailable, message: "the daemon is shutting down"))
        }
        let method: Method
        switch Method.named(request.method, found: found, id: request.id, simulate: handler.simulates) {
        case let .success(found): method = found
        case let .failure(failure):
            logBadRequest(session, "called \(ClientText.quoted(request.method)): \(failure.code.rawValue)")
            return .failure(failure)
        }
        guard authorizer.permits(method.access, session.credentials) else {
            let who = session.credentials.map { "uid \($0.uid), pid \($0.pid)" } ?? "unknown peer"
            logForClient(session, .warning, "denied \(method.rawValue) to client \(session.id) (\(who)): \(authorizer.refusal(for: method))")
            return .failure(WireProtocol.Failure(id: request.id, code: .forbidden, message: authorizer.refusal(for: method)))
        }
        // Most requests have no params: nothing to refuse, no name lists to make.
        if case let .object(members) = request.params, !members.isEmpty {
            do {
                try Params(request: request).refuse(allBut: method.parameterNames, withdrawn: method.withdrawnParameters)
            } catch {
                return .failure(error)
            }
        }
        switch method.route {
        case let .server(subscription):
            guard let topics = Self.topics(request) else {
                return .failure(WireProtocol.Failure(id: request.id, code: .invalidParams, message: "params.topics: expected an array of topic names (\(Topic.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            // A kiosk that knows its output learns which display's map in `directions` is its own.
            let outputDisplay: Int?
            do { outputDisplay = try handler.displayShowing(Params(request: request)) } catch { return .failure(error) }
            switch subscription {
            case .subscribe:
                newTopics = topics.subtracting(session.subscriptions)
                session.subscriptions.formUnion(topics)
            case .unsubscribe:
                session.subscriptions.subtract(topics)
            }
            var members: [(String, JSONValue)] = [
                ("topics", .array(session.subscriptions.sorted().map { .string($0.rawValue) })),
                ("seq", .int(handler.currentSeq)),
            ]
            if let outputDisplay { members.append(("display", .string(handler.displayID(outputDisplay)))) }
            return .success(.value(.object(members)))
        case let .daemon(daemonRequest):
            return handler.handle(daemonRequest, method, request, from: session)
        }
    }

    /// Bad requests are logged at debug priority, within the client's user's log budget.
    func logBadRequest(_ session: ClientSession, _ text: String) {
        logForClient(session, .debug, "client \(session.id) \(text)")
    }

    /// `{"topics": ["directions", ...]}`; nil when malformed or naming an unknown topic.
    static func topics(_ request: WireProtocol.Request) -> Set<Topic>? {
        guard case let .array(names)? = request.params["topics"], !names.isEmpty else { return nil }
        var topics: Set<Topic> = []
        for name in names {
            guard let text = name.stringValue, let topic = Topic(rawValue: text) else { return nil }
            topics.insert(topic)
        }
        return topics
    }

    func sendCurrentValues(of topics: Set<Topic>, to session: ClientSession) {
        guard let handler, session.isConnected else { return }
        for topic in topics.sorted() {
            let line = WireProtocol.eventLine(topic, seq: handler.currentSeq, data: handler.publishedValue(of: topic))
            session.enqueueEvent(topic, seq: handler.currentSeq, line: line, now: clock.now)
        }
        flush(session)
    }

    /// Sends the reply to a request whose handler answered later. A client that left in the
    /// meantime is simply gone: the reply is dropped.
    func completeDeferred(sessionID: Int, requestID: JSONValue, result: Result<JSONValue, WireProtocol.Failure>) {
        guard let session = sessions.values.first(where: { $0.id == sessionID }) else { return }
        session.owedReplies = max(0, session.owedReplies - 1)
        switch result {
        case let .success(value): send(WireProtocol.reply(id: requestID, result: value).jsonLine, to: session)
        case let .failure(failure): send(WireProtocol.reply(failure).jsonLine, to: session)
        }
        // A half-closed client is closed once it has what it was owed.
        if session.isConnected { finishHalfClosed(session) }
    }
}

extension Result where Failure == WireProtocol.Failure {
    /// The error code of a failure, nil for a success (the `result` label of the metrics).
    var failureCode: WireProtocol.ErrorCode? {
        if case let .failure(failure) = self { return failure.code }
        return nil
    }
}
