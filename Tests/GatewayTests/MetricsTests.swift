import AppleTestSupport
import HTTP
import Synchronization
import Testing
import WireFormats
@testable import Gateway

@Suite("GET /metrics: Prometheus text whose values move as requests are made")
struct MetricsTests {
    /// The exposition text as a client at `address` sees it (status, body).
    func scrape(_ gw: TestGateway, from address: String = "127.0.0.1", headers: [(String, String)] = []) async -> (Int, String) {
        let request = HTTPRequest(method: "GET", target: "/metrics", version: "HTTP/1.1", headers: HTTPHeaders(headers),
                                  body: [], remoteAddress: address)
        let response = await gw.app.responder.respond(to: request)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// The value of the series written exactly as `series` (name and labels), or nil when absent.
    func value(_ text: String, _ series: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    @Test("requests, sign-ups and sign-ins by provider, refusals and latency counts move; gauges are present")
    func valuesMove() async throws {
        let gw = try await TestGateway.make()
        let (status, before) = await scrape(gw)
        #expect(status == 200)
        let signUp = "gatehouse_http_requests_total{operation=\"identitytoolkit.accounts.signUp\",status=\"200\"}"
        #expect(value(before, signUp) == nil)
        _ = await gw.signUpAnonymously()
        _ = await gw.signUpAnonymously()
        _ = await gw.signInWithIdp(sub: "metrics-user")
        _ = await gw.signInWithIdp(sub: "metrics-user")
        _ = await gw.post("\(TestGateway.v1)/accounts:signInWithPassword", ["email": "nobody@example.com", "password": "x"])
        let (_, after) = await scrape(gw)
        #expect(value(after, signUp) == 2)
        #expect(value(after, "gatehouse_sign_ups_total{provider=\"anonymous\"}") == 2)
        #expect(value(after, "gatehouse_sign_ups_total{provider=\"test.example\"}") == 1)
        #expect(value(after, "gatehouse_sign_ins_total{provider=\"test.example\"}") == 1)
        #expect(value(after, "gatehouse_refusals_total{operation=\"identitytoolkit.accounts.signInWithPassword\",code=\"EMAIL_NOT_FOUND\"}") == 1)
        #expect(value(after, "gatehouse_http_request_duration_seconds_count{operation=\"identitytoolkit.accounts.signUp\"}") == 2)
        #expect(value(after, "gatehouse_http_request_duration_seconds_bucket{operation=\"identitytoolkit.accounts.signUp\",le=\"+Inf\"}") == 2)
        #expect((value(after, "gatehouse_store_transaction_duration_seconds_count{kind=\"write\"}") ?? 0) >= 4)
        #expect(value(after, "gatehouse_outbox_items{kind=\"mail\"}") == 0)
        #expect(after.contains("# TYPE gatehouse_http_requests_total counter"))
        #expect(after.contains("# TYPE gatehouse_http_request_duration_seconds histogram"))
        let kid = try #require(gw.app.services.keyRing.signingKey(at: gw.time.nowSeconds)?.record.kid)
        #expect(value(after, "gatehouse_signing_key_age_seconds{kid=\"\(kid)\",active=\"1\"}") != nil)
    }

    @Test("a refused provider credential counts by provider and failed check")
    func credentialRefusals() async throws {
        let gw = try await TestGateway.withApple(FakeApple())
        let nonce = "nonce-aud-0123456789abc"
        let token = FakeApple.sign(FakeApple.claims(nonce: nonce, now: gw.time.nowSeconds, aud: "com.other"))
        #expect(await gw.signInWithApple(token: token, nonce: nonce).status == 400)
        #expect(await gw.signInWithApple(token: token, nonce: nonce).status == 400)
        let (_, text) = await scrape(gw)
        #expect(value(text, "gatehouse_credential_refusals_total{provider=\"apple.com\",check=\"audience\"}") == 2)
    }

    @Test("only directly from metricsNetworks, or with an admin credential; never through a proxy")
    func access() async throws {
        let gw = try await TestGateway.make { $0.trustedProxies = ["10.0.0.1"] }
        #expect(await scrape(gw, from: "127.0.0.1").0 == 200)
        #expect(await scrape(gw, from: "::1").0 == 200)
        #expect(await scrape(gw, from: "203.0.113.9").0 == 401)
        #expect(await scrape(gw, from: "127.0.0.1", headers: [("X-Forwarded-For", "127.0.0.1")]).0 == 401)
        #expect(await scrape(gw, from: "10.0.0.1").0 == 401, "a trusted proxy's own address is never a metrics network")
        #expect(await scrape(gw, from: "203.0.113.9", headers: [("Authorization", "Bearer owner")]).0 == 401)
        #expect(await scrape(gw, from: "203.0.113.9", headers: TestGateway.adminHeaders).0 == 200)
        let closed = try await TestGateway.make { $0.metricsNetworks = [] }
        #expect(await scrape(closed, from: "127.0.0.1").0 == 401)
    }

    @Test("sign-ins and sign-ups are read from the operation and reply; linking counts as neither")
    func sessionOutcomes() throws {
        let session: JSONObject = ["idToken": "t", "refreshToken": "r"]
        var newIdp = session
        newIdp["providerId"] = "apple.com"
        newIdp["isNewUser"] = true
        var password = session
        password["email"] = "a@example.com"
        let empty = RequestBody.empty
        let linking = try RequestBody.json(Array(#"{"idToken":"x"}"#.utf8))
        #expect(SessionOutcome.of(.signUp, request: empty, reply: session) == .signUp(provider: "anonymous"))
        #expect(SessionOutcome.of(.signUp, request: empty, reply: password) == .signUp(provider: "password"))
        #expect(SessionOutcome.of(.signUp, request: linking, reply: password) == nil)
        #expect(SessionOutcome.of(.signInWithIdp, request: empty, reply: newIdp) == .signUp(provider: "apple.com"))
        #expect(SessionOutcome.of(.signInWithIdp, request: linking, reply: newIdp) == nil)
        #expect(SessionOutcome.of(.signInWithPassword, request: empty, reply: password) == .signIn(provider: "password"))
        #expect(SessionOutcome.of(.signInWithCustomToken, request: empty, reply: session) == .signIn(provider: "custom"))
        #expect(SessionOutcome.of(.signInWithPassword, request: empty, reply: ["localId": "u"]) == nil, "no session, no count")
        #expect(SessionOutcome.of(.lookup, request: empty, reply: session) == nil)
    }
}

@Suite("Prometheus text rendering")
struct PrometheusTextTests {
    @Test("histograms are cumulative with +Inf, sum and count; label values are escaped; order is stable")
    func rendering() {
        let registry = MetricsRegistry()
        let latency = MetricFamily.histogram("t_seconds", "Test latency.", labels: ["op"], buckets: [0.1, 1])
        let hits = MetricFamily.counter("t_total", "Test counter.", labels: ["path"])
        registry.observe(latency, ["a"], seconds: 0.05)
        registry.observe(latency, ["a"], seconds: 0.5)
        registry.observe(latency, ["a"], seconds: 5)
        registry.increment(hits, ["q\"\\\nz"])
        registry.increment(hits, ["b"], by: 2)
        let text = PrometheusText.render(registry.samples().map { ($0.key, $0.value) })
        #expect(text == """
            # HELP t_seconds Test latency.
            # TYPE t_seconds histogram
            t_seconds_bucket{op="a",le="0.1"} 1
            t_seconds_bucket{op="a",le="1"} 2
            t_seconds_bucket{op="a",le="+Inf"} 3
            t_seconds_sum{op="a"} 5.55
            t_seconds_count{op="a"} 3
            # HELP t_total Test counter.
            # TYPE t_total counter
            t_total{path="b"} 2
            t_total{path="q\\"\\\\\\nz"} 1

            """)
    }

    @Test("series without labels have no braces, a histogram's le stands alone, help text escapes backslash and newline")
    func unlabelledSeriesAndHelp() {
        let registry = MetricsRegistry()
        let depth = MetricFamily.gauge("u_depth", "Back\\slash and\nnewline \"kept\".", labels: [])
        let wait = MetricFamily.histogram("u_seconds", "Wait.", labels: [], buckets: [0.5])
        registry.observe(wait, [], seconds: 0.25)
        let text = PrometheusText.render([(depth, [(labels: [], value: .number(3))])] + registry.samples().map { ($0.key, $0.value) })
        #expect(text == """
            # HELP u_depth Back\\\\slash and\\nnewline "kept".
            # TYPE u_depth gauge
            u_depth 3
            # HELP u_seconds Wait.
            # TYPE u_seconds histogram
            u_seconds_bucket{le="0.5"} 1
            u_seconds_bucket{le="+Inf"} 1
            u_seconds_sum 0.25
            u_seconds_count 1

            """)
    }
}

@Suite("metrics: the open-connections gauge")
struct ConnectionGaugeTests {
    @Test("reading the connection counter does not wrap it again: it runs at the same stack depth after 1,000 scrapes")
    func scrapesDoNotDeepenTheCounter() throws {
        let metrics = GatewayMetrics(startedAt: 0)
        let addresses = Mutex<[UInt]>([])
        metrics.countConnections {
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            addresses.withLock { $0.append(address) }
            return 7
        }
        func scrape() -> String { metrics.exposition(outboxDepth: [:], keys: [], activeKid: nil, now: 0) }
        #expect(scrape().contains("\ngatehouse_open_connections 7\n"))
        for _ in 0..<1_000 { _ = scrape() }
        let seen = addresses.withLock { $0 }
        let first = try #require(seen.first), last = try #require(seen.last)
        // The stack grows down: a counter reached through more wrappers runs at a lower address.
        #expect(seen.count == 1_001)
        #expect(first >= last && first - last < 4_096, "the counter ran \(Int(first) - Int(last)) bytes deeper after 1,000 scrapes")
    }
}
