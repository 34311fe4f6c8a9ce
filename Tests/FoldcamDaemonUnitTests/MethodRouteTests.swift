@testable import FoldcamDaemon
import Testing

/// `Method.route`: where each method is handled (the routers switch over it with no default).
@Suite("method routes")
struct MethodRouteTests {
    @Test("every method has a route of its own")
    func routesAreDistinct() {
        let routes = Method.allCases.map(\.route)
        for (index, route) in routes.enumerated() {
            #expect(routes.firstIndex(of: route) == index, "\(Method.allCases[index]) shares its route")
        }
    }

    @Test("exactly the simulate.* methods go to the simulator, and only they are simulate-only")
    func simulationRoutes() {
        for method in Method.allCases {
            let simulated = if case .daemon(.simulation) = method.route { true } else { false }
            #expect(simulated == method.rawValue.hasPrefix("simulate."), "\(method.rawValue)")
            #expect(method.simulateOnly == simulated)
        }
    }

    @Test("the server answers subscriptions itself; snapshots go to their worker")
    func serverAndSnapshotRoutes() {
        #expect(Method.subscribe.route == .server(.subscribe))
        #expect(Method.unsubscribe.route == .server(.unsubscribe))
        #expect(Method.snapshot.route == .daemon(.snapshot))
        #expect(Method.allCases.filter { if case .server = $0.route { true } else { false } } == [.subscribe, .unsubscribe])
    }

    @Test("a daemon without --simulate lists no method the simulator handles")
    func hardwareListsNoSimulation() {
        let listed = Method.available(simulate: false)
        #expect(!listed.isEmpty)
        #expect(listed.allSatisfy { if case .daemon(.simulation) = $0.route { false } else { true } })
        #expect(Method.available(simulate: true).count == Method.allCases.count)
    }
}
