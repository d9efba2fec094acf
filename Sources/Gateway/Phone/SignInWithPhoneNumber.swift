import AuthCore
import Linking
import ProviderKit
import WireFormats

/// `accounts:signInWithPhoneNumber` (legacy `verifyPhoneNumber`): a code (with its `sessionInfo`) or a temporary
/// proof proves a phone number; the linking engine then signs in its account, creates one, or (with `idToken`)
/// gives the number to the signed-in user, Firebase's `linkWithPhoneNumber` and `updatePhoneNumber`.
///
/// A number another account holds is answered as Firebase does: the first time (proven by a code) with 200 and a
/// `temporaryProof` the client may sign in to that account with; with that proof and an `idToken`,
/// `PHONE_NUMBER_EXISTS`. `operation: "REAUTH"` never creates an account (`USER_NOT_FOUND` for a number nobody
/// has). The code is spent in the transaction that applies the sign-in.
enum SignInWithPhoneNumber {
    struct Request: Sendable {
        enum Proof: Sendable {
            case code(sessionInfo: String, code: String)
            case temporaryProof(String, phoneNumber: String)
        }

        var proof: Proof
        var idToken: String?
        var reauthentication: Bool

        init(_ body: RequestBody) throws {
            if let proof = try body.string("temporaryProof"), !proof.isEmpty {
                guard let number = try body.string("phoneNumber"), !number.isEmpty else { throw AuthError(.missingPhoneNumber) }
                self.proof = .temporaryProof(proof, phoneNumber: try PhoneNumberInput.require(number))
            } else {
                guard let sessionInfo = try body.string("sessionInfo"), !sessionInfo.isEmpty else {
                    throw AuthError(.missingSessionInfo)
                }
                guard let code = try body.string("code"), !code.isEmpty else { throw AuthError(.missingCode) }
                self.proof = .code(sessionInfo: sessionInfo, code: code)
            }
            idToken = try body.string("idToken")
            // The `VerifyOp` enum by name or by number (REAUTH = 2), as proto3 JSON allows both.
            let operation = try body.string("operation")
            reauthentication = operation == "REAUTH" || operation == "2"
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let phone = services.phone
        let accounts = try phone.requireAccounts()
        let request = try Request(context.body)
        // The session is checked first, so a stale ID token never spends a code.
        let session = try await request.idToken.asyncMap { try await services.sessions.authenticate(idToken: $0) }
        let number: String
        switch request.proof {
        case .code(let sessionInfo, let code):
            number = try await phone.codes.check(sessionInfo: sessionInfo, code: code, accounts: accounts)
        case .temporaryProof(_, let phoneNumber):
            number = phoneNumber
        }
        let intent: LinkingIntent = session.map { .link(localId: $0.user.localId) } ?? .signIn(autoCreate: !request.reauthentication)
        var withProof = false
        if case .code = request.proof { withProof = true }
        let merge = LinkingService.Request(credential: .phone(number: number, answerConflictWithProof: withProof), intent: intent)
        let (codes, proofs) = (phone.codes, phone.proofs)
        let outcome = try await services.linking.resolve(merge, policy: try await services.projectSettings.linkingPolicy()) { tx in
            switch request.proof {
            case .code(let sessionInfo, _):
                guard try codes.take(sessionInfo: sessionInfo, in: tx) == number else { throw AuthError(.invalidSessionInfo) }
            case .temporaryProof(let proof, let phoneNumber):
                try proofs.take(proof, phoneNumber: phoneNumber, in: tx)
            }
        }
        switch outcome {
        case .session(let user, let identities, let isNew):
            var response: JSONObject = ["localId": .string(user.localId), "isNewUser": .bool(isNew), "phoneNumber": .string(number)]
            SessionFields.add(try await services.sessions.startSession(for: user, identities: identities,
                                                                       signInProvider: ProviderID.phone.rawValue).issued,
                              to: &response)
            return .json(response)
        case .conflictInBody:
            let proof = try await proofs.issue(for: number)
            return .json(["phoneNumber": .string(number), "temporaryProof": .string(proof),
                          "temporaryProofExpiresIn": .string(String(TemporaryProofs.lifetimeSeconds))])
        case .needConfirmation:
            throw AuthError(.phoneNumberExists)
        }
    }
}
