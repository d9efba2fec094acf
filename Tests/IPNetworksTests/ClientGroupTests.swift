import Testing
import IPNetworks

@Suite("Client grouping: IPv4 address or IPv6 /64")
struct ClientGroupTests {
    private func group(_ text: String) -> ClientGroup { ClientGroup(IPAddress(text)!) }

    @Test("addresses in one IPv6 /64 are one client; the next /64 is another")
    func ipv6SixtyFour() {
        #expect(group("2001:db8:1:2::1") == group("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        #expect(group("2001:db8:1:2:aaaa::1") == group("2001:db8:1:2::"))
        #expect(group("2001:db8:1:2::1") != group("2001:db8:1:3::1"))
        #expect(group("2001:db8:1:2::1") != group("2001:db9:1:2::1"))
        #expect(group("2001:db8:1:2:aaaa::1").description == "2001:db8:1:2::/64")
    }

    @Test("IPv4 addresses are one client each, also when a dual-stack socket reports them mapped")
    func ipv4() {
        #expect(group("127.0.0.1") != group("127.0.0.2"))
        #expect(group("::ffff:10.1.2.3") == group("10.1.2.3"))
        #expect(group("::ffff:10.1.2.3").description == "10.1.2.3")
        #expect(group("192.0.2.7").description == "192.0.2.7")
        // ::1 and other addresses of ::/64 are IPv6, not IPv4 0.0.0.x.
        #expect(group("::1") != group("0.0.0.1"))
        #expect(group("::1") == group("::2"))
    }

    @Test("the text key of an address is its group; text that is no address is its own key")
    func limitKeys() {
        #expect(NetworkRange.limitKey(for: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(NetworkRange.limitKey(for: "::ffff:10.1.2.3") == "10.1.2.3")
        #expect(NetworkRange.limitKey(for: "not-an-address") == "not-an-address")
    }

    @Test("bytes and text give the same address")
    func addressForms() {
        #expect(IPAddress(bytes: [127, 0, 0, 1]) == IPAddress("127.0.0.1"))
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
        #expect(IPAddress("2001:db8::1")?.description == "2001:db8::1")
        #expect(IPAddress("example.com") == nil)
    }
}

@Suite("Network ranges")
struct NetworkRangeTests {
    @Test("CIDR membership, with IPv4-mapped peers matching IPv4 ranges")
    func membership() {
        #expect(NetworkRange("::1/128")!.contains("::1"))
        #expect(NetworkRange("127.0.0.0/8")!.contains("::ffff:127.0.0.9"))
        #expect(!NetworkRange("127.0.0.0/8")!.contains("128.0.0.1"))
        #expect(NetworkRange("2001:db8::/32")!.contains(IPAddress("2001:db8:ffff::1")!))
        #expect(!NetworkRange("10.0.0.0/8")!.contains("2001:db8::1"))
        #expect(NetworkRange("10.0.0.1")!.prefixLength == 32)
        #expect(NetworkRange("10.0.0.0/33") == nil)
        #expect(NetworkRange("nonsense/8") == nil)
    }
}
