import Testing
import WireFormats

@Suite("FormURLEncoding")
struct FormURLEncodingTests {
    private func same(_ lhs: [(String, String)], _ rhs: [(String, String)]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    @Test("pairs survive an encode/decode round trip", arguments: [
        [("grant_type", "authorization_code"), ("code", "c.0a1-b_2~")],
        [("a b", "c+d"), ("e&f", "g=h"), ("%", "100%"), ("empty", "")],
        [("redirect_uri", "https://example.com/cb?x=1&y=2#frag"), ("scope", "name email")],
        [("name", "Zoë 東京 🚀"), ("ctl", "\t\n\u{0}")],
    ])
    func roundTrip(pairs: [(String, String)]) {
        #expect(same(FormURLEncoding.decode(FormURLEncoding.encode(pairs)), pairs))
    }

    @Test("space encodes as '+' and a literal '+' as %2B")
    func plusHandling() {
        #expect(FormURLEncoding.encode([("q", "a b+c")]) == "q=a+b%2Bc")
        #expect(same(FormURLEncoding.decode("q=a+b%2Bc"), [("q", "a b+c")]))
        #expect(same(FormURLEncoding.decode("a+b=c%20d"), [("a b", "c d")]))
    }

    @Test("reserved characters are percent-encoded; unreserved ones are left alone")
    func reservedCharacters() {
        #expect(FormURLEncoding.encode([("k", ":/?#[]@!$&'()*+,;=%")])
                == "k=%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%25")
        #expect(FormURLEncoding.encode([("AZaz09", "-._~")]) == "AZaz09=-._~")
        #expect(FormURLEncoding.encode([("a", "1"), ("b", "2")]) == "a=1&b=2")
        #expect(FormURLEncoding.encode([]) == "")
    }

    @Test("UTF-8 text encodes byte by byte with upper-case hex")
    func utf8() {
        #expect(FormURLEncoding.encode([("city", "Zürich")]) == "city=Z%C3%BCrich")
        #expect(FormURLEncoding.encode([("e", "€")]) == "e=%E2%82%AC")
        #expect(same(FormURLEncoding.decode("city=Z%c3%bcrich"), [("city", "Zürich")]))
    }

    @Test("invalid escapes are kept literally")
    func invalidEscapes() {
        let decoded = FormURLEncoding.decode("a=%&b=%4&c=%zz&d=50%25%")
        #expect(same(decoded, [("a", "%"), ("b", "%4"), ("c", "%zz"), ("d", "50%%")]))
    }

    @Test("empty segments are skipped; a segment without '=' has an empty value; only the first '=' splits")
    func segmentShapes() {
        #expect(same(FormURLEncoding.decode("&&a&b=&c=1=2&"), [("a", ""), ("b", ""), ("c", "1=2")]))
        #expect(FormURLEncoding.decode("").isEmpty)
    }

    @Test("percent-decoded bytes that are not UTF-8 become U+FFFD instead of failing")
    func invalidUTF8() {
        #expect(same(FormURLEncoding.decode("x=%FF"), [("x", "\u{FFFD}")]))
    }

    @Test("value(named:) finds the first field by its decoded name, and decodes only that value")
    func valueNamed() {
        #expect(FormURLEncoding.value(named: "key", in: "a=1&key=first&key=second") == "first")
        #expect(FormURLEncoding.value(named: "key", in: "k%65y=escaped+name") == "escaped name")
        #expect(FormURLEncoding.value(named: "flag", in: "flag&x=1") == "")
        #expect(FormURLEncoding.value(named: "name", in: "&&name=Zo%C3%AB&") == "Zoë")
        #expect(FormURLEncoding.value(named: "missing", in: "a=1") == nil)
        #expect(FormURLEncoding.value(named: "key", in: nil) == nil)
        #expect(FormURLEncoding.value(named: "key", in: "=x&key=a=b") == "a=b")
        #expect(FormURLEncoding.value(named: "key", in: "key=") == "")
        #expect(FormURLEncoding.value(named: "", in: "=v") == "v")
        #expect(FormURLEncoding.value(named: "a b", in: "a+b=c%2") == "c%2")
    }
}
