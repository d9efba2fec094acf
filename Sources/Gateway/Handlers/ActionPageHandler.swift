import AuthCore
import HTTP
import ProviderKit
import WireFormats

/// The page action links open (`GET /__/auth/action`, like Firebase Hosting's): shows the confirm button of
/// an email verification (or of the recovery of a changed address) and the password-reset form, handles both
/// (`POST`), and sends email sign-in links
/// on to the app's continue URL with the link parameters, where the SDK completes the sign-in. Works without
/// JavaScript. A `GET` never uses a code up: mail scanners and link previews fetch links before people do.
/// Each mode accepts only codes of its own type.
enum ActionPageHandler {
    static func show(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let query = FormURLEncoding.decode(context.request.query ?? "")
        func value(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
        let lang = BuiltInLanguage.of(value("lang"))
        let s = ActionPageHTML.strings(lang)
        let code = value("oobCode")
        guard let mode = value("mode").flatMap(OobRequestType.init(mode:)) else {
            return .response(ActionPageHTML.page(lang: lang, title: s.invalidLink, body: "", status: 400))
        }
        do {
            switch mode {
            case .verifyEmail, .verifyAndChangeEmail, .recoverEmail:
                let payload = try await services.email.codes.peek(code)
                guard payload.type == mode, let code else { throw AuthError(.invalidOobCode) }
                // A recovery shows the address it restores; a change the address it moves to.
                let shown = mode == .recoverEmail ? payload.email : payload.newEmail ?? payload.email
                return .response(ActionPageHTML.page(lang: lang, title: mode == .recoverEmail ? s.recoverTitle : s.confirmTitle,
                                                     body: ActionPageHTML.confirmForm(mode: mode.mode, code: code, email: shown,
                                                                                      lang: lang)))
            case .passwordReset:
                let payload = try await services.email.codes.peek(code)
                guard payload.type == .passwordReset, let code else { throw AuthError(.invalidOobCode) }
                return .response(ActionPageHTML.page(lang: lang, title: s.resetTitle, body: ActionPageHTML.resetForm(
                    code: code, email: payload.email, continueUrl: payload.continueUrl, lang: lang, error: nil)))
            case .emailSignIn:
                let payload = try await services.email.codes.peek(code)
                guard payload.type == .emailSignIn else { throw AuthError(.invalidOobCode) }
                guard let target = payload.continueUrl else {
                    return .response(ActionPageHTML.page(lang: lang, title: s.signInTitle,
                                                         body: ActionPageHTML.message(s.signInBody, continueUrl: nil, lang: lang)))
                }
                // The continue URL was checked against the authorized domains when the link was issued.
                let separator = target.contains("?") ? "&" : "?"
                var headers = HTTPHeaders()
                headers.add("Location", target + separator + (context.request.query ?? ""))
                headers.add("Cache-Control", "no-store")
                headers.add("Referrer-Policy", "no-referrer")
                return .response(HTTPResponse(status: 303, headers: headers, body: []))
            }
        } catch let error as AuthError {
            return .response(failure(error, lang: lang))
        }
    }

    /// The submission of the reset form or of the verification's confirm button.
    static func submit(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let body = context.body
        let lang = BuiltInLanguage.of(try body.string("lang"))
        let s = ActionPageHTML.strings(lang)
        let code = try body.string("oobCode")
        guard let mode = try body.string("mode").flatMap(OobRequestType.init(mode:)), mode != .emailSignIn, let code else {
            return .response(ActionPageHTML.page(lang: lang, title: s.invalidLink, body: "", status: 400))
        }
        if mode != .passwordReset { return try await verify(services, context, code: code, mode: mode, lang: lang) }
        let continueUrl = try body.string("continueUrl")
        do {
            let payload = try await ResetPasswordHandler.reset(services, code: code, newPassword: try body.string("newPassword") ?? "")
            return .response(ActionPageHTML.page(lang: lang, title: s.resetTitle, body: ActionPageHTML.message(
                s.passwordChanged, continueUrl: payload.continueUrl, lang: lang)))
        } catch let error as AuthError where error.code == .weakPassword {
            let payload = try? await services.email.codes.peek(code)
            return .response(ActionPageHTML.page(lang: lang, title: s.resetTitle, body: ActionPageHTML.resetForm(
                code: code, email: payload?.email ?? "", continueUrl: continueUrl, lang: lang, error: error.detail), status: 400))
        } catch let error as AuthError {
            return .response(failure(error, lang: lang))
        }
    }

    /// The confirm button's submission: applies the verification (or the change of address).
    private static func verify(_ services: GatewayServices, _ context: OperationContext, code: String,
                               mode: OobRequestType, lang: String) async throws -> Reply {
        let s = ActionPageHTML.strings(lang)
        do {
            let (_, _, payload) = try await ApplyOobCode.apply(services, code: code, types: [mode])
            if let change = EmailRecovery.change(afterApplying: payload) { await EmailRecovery.notify(change, services, context) }
            let text = switch payload.type {
            case .verifyEmail: s.verified
            case .recoverEmail: s.emailRestored
            default: s.emailChanged
            }
            return .response(ActionPageHTML.page(lang: lang, title: text,
                                                 body: ActionPageHTML.message("", continueUrl: payload.continueUrl, lang: lang)))
        } catch let error as AuthError {
            return .response(failure(error, lang: lang))
        }
    }

    private static func failure(_ error: AuthError, lang: String) -> HTTPResponse {
        let s = ActionPageHTML.strings(lang)
        return ActionPageHTML.page(lang: lang, title: s.invalidLink, body: "<p>\(error.code.rawValue)</p>", status: 400)
    }
}
