import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Configuration: https required, http only when allowed, the project checked")
    struct ConfigurationTests {
        func configuration(_ url: String, key: String = GatewayAPI.apiKey, project: String = ClientEnvironment.projectID) -> AuthConfiguration {
            var configuration = AuthConfiguration(gatewayURL: URL(string: url)!, apiKey: key, projectID: project)
            configuration.sessionStore = InMemorySessionStore()
            return configuration
        }

        @Test("a plain http:// gateway URL is refused before anything is sent, unless allowed for local development")
        func plainHTTPIsRefused() async throws {
            let environment = try ClientEnvironment.shared
            let http = configuration(environment.main.url.absoluteString)
            let refused = await authError { _ = try Auth(configuration: http) }
            #expect(refused?.code == .insecureGatewayURL)
            #expect(refused?.message.contains("allowsInsecureHTTPForLocalDevelopment") == true)
            #expect(await authError { _ = try Auth(configuration: configuration("HTTP://auth.example.com")) }?.code == .insecureGatewayURL)

            var allowed = http
            allowed.allowsInsecureHTTPForLocalDevelopment = true
            let user = try await Auth(configuration: allowed).signInAnonymously().user
            #expect(!user.uid.isEmpty)
            // https needs no permission (nothing is sent by the initializer).
            #expect(throws: Never.self) { try Auth(configuration: configuration("https://auth.example.com/prefix")) }
        }

        @Test("configurations that cannot work are refused with their reason")
        func unusableConfigurations() async {
            #expect(await authError { _ = try Auth(configuration: configuration("https://auth.example.com", key: "")) }?.code == .invalidAPIKey)
            #expect(await authError { _ = try Auth(configuration: configuration("https://auth.example.com", project: "")) }?.code
                == .invalidConfiguration)
            #expect(await authError { _ = try Auth(configuration: configuration("ftp://auth.example.com")) }?.code == .invalidConfiguration)
            #expect(await authError { _ = try Auth(configuration: configuration("https:///no-host")) }?.code == .invalidConfiguration)
            #expect(await authError { _ = try Auth(configuration: configuration("https://auth.example.com/?key=1")) }?.code == .invalidConfiguration)
        }

        @Test("a token the gateway issues for another project is refused: the configuration points at the wrong project")
        func otherProject() async throws {
            let environment = try ClientEnvironment.shared
            var wrong = environment.configuration()
            wrong.projectID = "another-project"
            let auth = try Auth(configuration: wrong)
            let error = await authError { try await auth.signInAnonymously() }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("demo-client") == true)
            #expect(auth.currentUser == nil)
        }

        @Test("Auth.configure(_:) makes the instance Auth.auth() returns, as FirebaseApp.configure() does")
        func sharedInstance() async throws {
            let environment = try ClientEnvironment.shared
            let configured = try Auth.configure(environment.configuration())
            #expect(Auth.auth() === configured)
            let user = try await Auth.auth().signInAnonymously().user
            #expect(configured.currentUser === user)
            // PhoneAuthProvider.provider() is the shared instance's, as FirebaseAuth's (tested here: the one test
            // that sets the shared instance).
            let phone = PhoneAuthProvider.provider()
            #expect(phone.auth === configured)
            let number = Unique.phoneNumber()
            let verificationID = try await phone.verifyPhoneNumber(number.number, uiDelegate: nil)
            let signedIn = try await Auth.auth().signIn(with: phone.credential(withVerificationID: verificationID,
                                                                                verificationCode: number.code))
            #expect(signedIn.user.phoneNumber == number.number && configured.currentUser === signedIn.user)
        }
    }
}
