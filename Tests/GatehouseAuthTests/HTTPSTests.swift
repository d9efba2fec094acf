import Foundation
@testable import GatehouseAuth
import Testing

/// The client over HTTPS through the repository's nginx site file, with a throwaway CA.
///
/// What makes FoundationNetworking trust a CA on Linux: nothing per process or per session. It hands TLS to
/// libcurl, which reads only the CA file compiled into it (Debian: /etc/ssl/certs/ca-certificates.crt); the
/// `URLSessionCertificateAuthorityInfoFile` variable is read on Android only, and a URLSession delegate is never
/// asked about server trust on Linux (both tried with a small URLSession program against `openssl s_server` and a
/// throwaway CA: the handshake failed with "unable to get local issuer certificate" either way, and the delegate was
/// never called; `SSL_CERT_FILE` and `CURL_CA_BUNDLE` changed nothing either). So the test runs
/// the client in a child process (`GatehouseAuthTLSProbe`) inside its own mount namespace, where that file is the
/// system's bundle plus the throwaway CA (`unshare --mount`, with `--user --map-root-user` when not root). The
/// machine's trust store is never touched.
extension ClientTests {
    @Suite("HTTPS through nginx on loopback with a throwaway CA")
    struct HTTPSTests {
        static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

        /// Runs the probe with `arguments`; with `trusting`, inside a mount namespace whose CA bundle includes it.
        static func probe(_ arguments: [String], trusting caFile: String?, work: URL) async throws -> [String: Any] {
            try TestPaths.require(TestPaths.tlsProbe, "GatehouseAuthTLSProbe (swift build --build-tests builds it)")
            var executable = TestPaths.tlsProbe
            var argv = arguments
            if let caFile {
                let bundle = work.appendingPathComponent("ca-bundle-\(Unique.token()).crt")
                let system = (try? Data(contentsOf: URL(fileURLWithPath: systemBundle))) ?? Data()
                try (system + Data("\n".utf8) + Data(contentsOf: URL(fileURLWithPath: caFile))).write(to: bundle)
                executable = URL(fileURLWithPath: "/usr/bin/unshare")
                let namespaces = getuid() == 0 ? ["--mount"] : ["--user", "--map-root-user", "--mount"]
                argv = namespaces + ["--propagation", "private", "/bin/sh", "-c", #"mount --bind "$1" "$2" && shift 2 && exec "$@""#,
                                     "sh", bundle.path, systemBundle, TestPaths.tlsProbe.path] + arguments
            }
            let child = try ChildProcess(executable, argv, workDirectory: work, name: "probe-\(Unique.token(6))")
            let status = try await child.wait(timeout: 600)
            guard status == 0, let line = child.stdout.split(separator: "\n").last,
                  let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                throw TestSetupError("the probe exited with \(status):\n\(child.stderr)\n\(child.stdout)")
            }
            return object
        }

        @Test("the probe's session scenario without an email is a usage error (exit 2), not a crash half-way")
        func probeUsage() async throws {
            let work = try ClientEnvironment.shared.workDirectory
            try TestPaths.require(TestPaths.tlsProbe, "GatehouseAuthTLSProbe (swift build --build-tests builds it)")
            let child = try ChildProcess(TestPaths.tlsProbe, ["session", "https://127.0.0.1:9", GatewayAPI.apiKey, ClientEnvironment.projectID],
                                         workDirectory: work, name: "probe-usage-\(Unique.token(6))")
            #expect(try await child.wait(timeout: 600) == 2)
            #expect(child.stderr.contains("usage:"))
        }

        @Test("sign-in, a password, refresh and lookup over HTTPS; an unknown CA is refused; a down gateway is UNAVAILABLE")
        func overNginx() async throws {
            let environment = try ClientEnvironment.shared
            let work = environment.workDirectory
            let front = try await environment.standIns.call("nginx_start", ["port": environment.main.port]).object
            let tlsPort = try #require(front["tlsPort"] as? Int)
            let caFile = try #require(front["caFile"] as? String)
            // nginx in front of a port where nothing listens: its own 503, in Google's envelope.
            let deadFront = try await environment.standIns.call("nginx_start", ["port": 9]).object
            let deadPort = try #require(deadFront["tlsPort"] as? Int)
            let deadCAFile = try #require(deadFront["caFile"] as? String)
            defer {
                Task {
                    _ = try? await environment.standIns.call("nginx_stop", ["tls_port": tlsPort])
                    _ = try? await environment.standIns.call("nginx_stop", ["tls_port": deadPort])
                }
            }
            let https = "https://127.0.0.1:\(tlsPort)"
            let email = Unique.email("tls")
            let common = [GatewayAPI.apiKey, ClientEnvironment.projectID]

            let session = try await Self.probe(["session", https] + common + [email], trusting: caFile, work: work)
            #expect(session["error"] == nil, "\(session)")
            #expect(session["email"] as? String == email && session["refreshed"] as? Bool == true)
            #expect(session["signedInAgain"] as? Bool == true && session["providers"] as? [String] == ["password"])
            let uid = try #require(session["uid"] as? String)
            #expect(try await environment.api().user(uid)?["email"] as? String == email)
            // The requests went through this nginx: its access log has them (paths only, as the site file logs).
            let accessLog = try await environment.standIns.string("nginx_access_log", ["tls_port": tlsPort])
            for path in ["/identitytoolkit.googleapis.com/v1/accounts:signUp", "/securetoken.googleapis.com/v1/token"] {
                #expect(accessLog.contains("\"POST \(path) "), "\(accessLog)")
            }

            let untrusted = try await Self.probe(["session", https] + common + [Unique.email("tls")], trusting: nil, work: work)
            #expect(untrusted["error"] as? String == "networkError", "\(untrusted)")
            #expect((untrusted["message"] as? String)?.lowercased().contains("certificate") == true, "\(untrusted)")

            let down = try await Self.probe(["unavailable", "https://127.0.0.1:\(deadPort)"] + common, trusting: deadCAFile, work: work)
            #expect(down["error"] as? String == "networkError" && down["gatewayCode"] as? String == "UNAVAILABLE", "\(down)")
            #expect(down["httpStatus"] as? Int == 503)
            #expect(GatewayErrorTable.codes["UNAVAILABLE"] == .networkError)
        }
    }
}
