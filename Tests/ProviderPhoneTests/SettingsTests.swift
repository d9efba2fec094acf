import AuthCore
import ProviderKit
import Testing
@testable import ProviderPhone

@Suite("Phone settings")
struct PhoneSettingsTests {
    @Test("defaults are usable")
    func defaults() {
        #expect(PhoneSettings().problem == nil)
    }
}
