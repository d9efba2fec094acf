import AuthCore
import Crypto
import Testing
@testable import ProviderEmail
import WireFormats

@Suite("Password hashing")
struct PasswordHasherTests {
    let cheap = ScryptPasswordHasher(parameters: .init(n: 16, r: 1, p: 1))

    @Test("a hash verifies its own password and no other")
    func roundTrip() throws {
        let credential = try cheap.hash("correct horse")
        #expect(credential.algorithm == "SCRYPT")
        #expect(credential.salt.count == 16)
        #expect(cheap.verify("correct horse", against: credential))
        #expect(!cheap.verify("correct horsf", against: credential))
    }

    @Test("two hashes of one password differ by their random salt")
    func salted() throws {
        #expect(try cheap.hash("same").hash != cheap.hash("same").hash)
    }

    @Test("the stored parameters, not the current ones, verify an older hash")
    func perUserParameters() throws {
        let old = try cheap.hash("pw123456")
        let stronger = ScryptPasswordHasher(parameters: .init(n: 32, r: 2, p: 1))
        #expect(stronger.verify("pw123456", against: old))
        #expect(stronger.needsRehash(old))
        #expect(!cheap.needsRehash(old))
    }

    @Test("a tampered hash, unknown algorithm or broken parameters never verify")
    func refusals() throws {
        var credential = try cheap.hash("pw123456")
        var tampered = credential
        tampered.hash[0] ^= 1
        #expect(!cheap.verify("pw123456", against: tampered))
        credential.algorithm = "MD5"
        #expect(!cheap.verify("pw123456", against: credential))
        credential.algorithm = "SCRYPT"
        credential.parameters = "{\"n\":3}"
        #expect(!cheap.verify("pw123456", against: credential))
    }

    @Test("the decoy credential matches nothing and has current parameters")
    func decoy() {
        let decoy = cheap.decoyCredential()
        #expect(!cheap.verify("", against: decoy))
        #expect(!cheap.needsRehash(decoy))
    }

    @Test("Firebase's published scrypt vector verifies (and a wrong password does not)")
    func firebaseVector() throws {
        let parameters = FirebaseHashParameters(
            signerKey: Base64.decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!,
            saltSeparator: Base64.decode("Bw==")!, rounds: 8, memoryCost: 14)
        let credential = PasswordCredential(
            algorithm: "FIREBASE_SCRYPT", parameters: parameters.text,
            hash: Base64.decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")!,
            salt: Base64.decode("42xEC+ixf3L2lw==")!)
        #expect(cheap.verify("user1password", against: credential))
        #expect(!cheap.verify("user2password", against: credential))
        #expect(cheap.needsRehash(credential))
        #expect(FirebaseHashParameters(text: parameters.text) == parameters)
    }
}
