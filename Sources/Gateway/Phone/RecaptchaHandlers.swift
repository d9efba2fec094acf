import AuthCore
import WireFormats

/// What the gateway tells clients about app verification. Google's reCAPTCHA, Play Integrity and APNs checks
/// would tie every phone sign-in to Google, so the gateway enforces none of them and says so: the answers are
/// the Firebase emulator's (`recaptchaParams`) and "enforcement off" for every provider (`recaptchaConfig`),
/// which make the JS SDK skip reCAPTCHA Enterprise. Tokens clients send anyway are ignored. The gateway's own
/// limits (codes per number, per client network, per project; attempts per code) stand in for app verification.
enum RecaptchaHandlers {
    /// `GET /v1/recaptchaParams`.
    static func params(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        .json(["kind": "identitytoolkit#GetRecaptchaParamResponse",
               "recaptchaStoken": "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__",
               "recaptchaSiteKey": "Fake-key__Do-not-send-this-to-Recaptcha_"])
    }

    /// `GET /v2/recaptchaConfig`.
    static func config(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let off: [JSONValue] = ["EMAIL_PASSWORD_PROVIDER", "PHONE_PROVIDER"].map { provider in
            .object(["provider": .string(provider), "enforcementState": "OFF"])
        }
        return .json(["recaptchaEnforcementState": .array(off), "useSmsBotScore": false, "useSmsTollFraudProtection": false])
    }
}
