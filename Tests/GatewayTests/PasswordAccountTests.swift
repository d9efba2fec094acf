import AuthCore
import Crypto
@testable import ProviderEmail
import Testing
@testable import Gateway

@Suite("Password accounts")
struct PasswordAccountTests {
    @Test("sign-up stores a lower-cased email and signs in with the password provider")
    func signUpAndSignIn() async throws {
        let gw = try await TestGateway.withEmail()
        let created = await gw.signUp("Ada@Example.com", "secret1")
        #expect(created.status == 200)
        #expect(created["kind"]?.stringValue == "identitytoolkit#SignupNewUserResponse")
        #expect(created["email"]?.stringValue == "ada@example.com")
        let claims = TestGateway.claims(created["idToken"]?.stringValue ?? "")
        #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "password")

        let signedIn = await gw.signIn("ADA@example.com", "secret1")
        #expect(signedIn["kind"]?.stringValue == "identitytoolkit#VerifyPasswordResponse")
        #expect(signedIn["registered"]?.boolValue == true)
        #expect(signedIn["localId"] == created["localId"])
        #expect(signedIn["expiresIn"]?.stringValue == "3600")
        let user = await gw.lookup(signedIn["idToken"]?.stringValue ?? "")["users"]?.arrayValue?.first
        #expect(user?["providerUserInfo"]?.arrayValue?.first?["providerId"]?.stringValue == "password")
        #expect(user?["passwordHash"]?.stringValue == "UkVEQUNURUQ=")
    }

    @Test("taken emails, weak passwords and malformed or missing fields are refused with Firebase's codes")
    func refusals() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("ada@example.com", "secret1")
        #expect(await gw.signUp("ADA@example.com", "secret2").error == "EMAIL_EXISTS")
        #expect(await gw.signUp("bob@example.com", "12345").error == "WEAK_PASSWORD : Password should be at least 6 characters")
        #expect(await gw.signUp("", "secret1").error == "INVALID_EMAIL")
        #expect(await gw.signUp("not-an-email", "secret1").error == "INVALID_EMAIL")
        #expect(await gw.post("\(TestGateway.v1)/accounts:signUp", ["email": "c@x.io"]).error == "MISSING_PASSWORD")
        #expect(await gw.post("\(TestGateway.v1)/accounts:signInWithPassword", ["password": "x"]).error == "MISSING_EMAIL")
        #expect(await gw.post("\(TestGateway.v1)/accounts:signInWithPassword", ["email": "c@x.io"]).error == "MISSING_PASSWORD")
    }

    @Test("the password policy is configurable")
    func configurablePolicy() async throws {
        let gw = try await TestGateway.withEmail { $0.setPluginValue("email.passwordPolicy", ["minLength": 10, "requireDigit": true]) }
        #expect(await gw.signUp("a@x.io", "secret1").error == "WEAK_PASSWORD : Password should be at least 10 characters")
        #expect(await gw.signUp("a@x.io", "secretsecret").error == "WEAK_PASSWORD : Password must contain a digit")
        #expect(await gw.signUp("a@x.io", "secretsecret1").status == 200)
    }

    @Test("signing up with an anonymous user's ID token upgrades it and keeps its localId")
    func anonymousUpgrade() async throws {
        let gw = try await TestGateway.withEmail()
        let anonymous = await gw.signUpAnonymously()
        let upgraded = await gw.signUp("ada@example.com", "secret1", idToken: anonymous["idToken"]?.stringValue)
        #expect(upgraded["localId"] == anonymous["localId"])
        #expect(TestGateway.claims(upgraded["idToken"]?.stringValue ?? "")["firebase"]?["sign_in_provider"]?.stringValue == "password")
        #expect(await gw.signIn("ada@example.com", "secret1")["localId"] == anonymous["localId"])
        let other = await gw.signUpAnonymously()
        #expect(await gw.signUp("ada@example.com", "secret2", idToken: other["idToken"]?.stringValue).error == "EMAIL_EXISTS")
    }

    @Test("wrong and unknown credentials: distinct codes normally, INVALID_LOGIN_CREDENTIALS with privacy on")
    func signInErrors() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.signUp("ada@example.com", "secret1")
        #expect(await gw.signIn("ada@example.com", "wrong-one").error == "INVALID_PASSWORD")
        #expect(await gw.signIn("nobody@example.com", "secret1").error == "EMAIL_NOT_FOUND")

        let privateGw = try await TestGateway.withEmail { $0.setPluginValue("email.improvedEmailPrivacy", true) }
        _ = await privateGw.signUp("ada@example.com", "secret1")
        #expect(await privateGw.signIn("ada@example.com", "wrong-one").error == "INVALID_LOGIN_CREDENTIALS")
        #expect(await privateGw.signIn("nobody@example.com", "secret1").error == "INVALID_LOGIN_CREDENTIALS")
    }

    @Test("with privacy on, an unknown email runs the KDF exactly as often as a known one")
    func equalWork() async throws {
        let hasher = CountingHasher()
        let gw = try await TestGateway.withEmail(hasher: hasher) { $0.setPluginValue("email.improvedEmailPrivacy", true) }
        _ = await gw.signUp("ada@example.com", "secret1")
        let before = hasher.verifies
        _ = await gw.signIn("ada@example.com", "wrong-one")
        let known = hasher.verifies - before
        _ = await gw.signIn("nobody@example.com", "wrong-one")
        let unknown = hasher.verifies - before - known
        #expect(known == 1)
        #expect(unknown == known)
    }

    @Test("hashing runs on the dedicated KDF pool, never on the caller's thread")
    func kdfPool() async throws {
        let hasher = CountingHasher()
        let gw = try await TestGateway.withEmail(hasher: hasher)
        _ = await gw.signUp("ada@example.com", "secret1")
        _ = await gw.signIn("ada@example.com", "secret1")
        #expect(!hasher.threads.isEmpty)
        #expect(hasher.threads == ["kdf"])
        #expect(PasswordService.workerCount(configured: 0, cores: 2) == 1)
        #expect(PasswordService.workerCount(configured: 0, cores: 1) == 1)
        #expect(PasswordService.workerCount(configured: 0, cores: 8) == 7)
        #expect(PasswordService.workerCount(configured: 3, cores: 8) == 3)
    }

    @Test("repeated wrong passwords lock the address out, even with the right password, until the window ends")
    func failedPasswordThrottle() async throws {
        let gw = try await TestGateway.withEmail {
            $0.setPluginValue("email.limits.failedPasswordsPerAccount", 3)
            $0.setPluginValue("email.limits.failedPasswordWindowSeconds", 600)
        }
        _ = await gw.signUp("ada@example.com", "secret1")
        for _ in 0..<3 { #expect(await gw.signIn("ada@example.com", "nope-nope").error == "INVALID_PASSWORD") }
        #expect(await gw.signIn("ada@example.com", "secret1").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        gw.time.advance(seconds: 600)
        #expect(await gw.signIn("ada@example.com", "secret1").status == 200)
    }

    @Test("parallel wrong guesses cannot exceed the failure limit: attempts are reserved before the KDF runs")
    func parallelGuesses() async throws {
        let gw = try await TestGateway.withEmail {
            $0.setPluginValue("email.limits.failedPasswordsPerAccount", 3)
            $0.setPluginValue("email.limits.failedPasswordWindowSeconds", 600)
        }
        _ = await gw.signUp("bob@example.com", "secret1")
        let errors = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<20 { group.addTask { await gw.signIn("bob@example.com", "wrong-guess").error } }
            var all: [String?] = []
            for await error in group { all.append(error) }
            return all
        }
        #expect(errors.filter { $0 == "INVALID_PASSWORD" }.count == 3)
        #expect(errors.filter { $0 == "TOO_MANY_ATTEMPTS_TRY_LATER" }.count == 17)
    }

    @Test("password sign-ups are limited per client IP")
    func signUpLimit() async throws {
        let gw = try await TestGateway.withEmail { $0.setPluginValue("email.limits.signUpsPerIPPerHour", 2) }
        #expect(await gw.signUp("a@x.io", "secret1").status == 200)
        #expect(await gw.signUp("b@x.io", "secret1").status == 200)
        #expect(await gw.signUp("c@x.io", "secret1").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(await gw.post("\(TestGateway.v1)/accounts:signUp", ["email": "c@x.io", "password": "secret1"],
                              from: "10.9.9.9").status == 200)
    }
}

@Suite("KDF admission")
struct KDFAdmissionTests {
    @Test("when the KDF queue is full, sign-ins are refused at once instead of piling up")
    func boundedQueue() async throws {
        let hasher = GatedHasher()
        let gw = try await TestGateway.make(factories: TestGateway.factories(email: EmailProviderFactory(hasher: hasher))) { config in
            config.setPluginValue("email.kdfWorkers", 1)
            config.setPluginValue("email.kdfMaxQueued", 1)
        }
        _ = await gw.signUp("ada@example.com", "secret1")
        let pool = try #require(gw.kdfPool)
        let running = Task { await gw.signIn("ada@example.com", "secret1") }
        while hasher.verificationsStarted < 1 { await Task.yield() }
        let queued = Task { await gw.signIn("ada@example.com", "secret1") }
        while pool.queuedJobs < 1 { await Task.yield() }
        #expect(await gw.signIn("ada@example.com", "secret1").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        hasher.open(2)
        #expect(await running.value.status == 200)
        #expect(await queued.value.status == 200)
    }
}
