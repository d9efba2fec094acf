import Testing
@testable import Gateway

@Suite("Emulator oobCodes log")
struct EmulatorOobLogTests {
    @Test("past its capacity the log forgets the oldest codes, so codes never listed cannot grow it without bound")
    func bounded() {
        let log = EmulatorOobLog(capacity: 3)
        for n in 1...5 {
            log.record(.init(email: "u\(n)@example.com", requestType: "VERIFY_EMAIL", oobCode: "code\(n)", oobLink: "link\(n)"))
        }
        #expect(log.all.map(\.oobCode) == ["code3", "code4", "code5"])
        log.forget(["code4"])
        #expect(log.all.map(\.oobCode) == ["code3", "code5"])
    }
}
