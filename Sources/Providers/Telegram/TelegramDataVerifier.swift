import AuthCore
import Crypto
import ProviderKit
import WireFormats

/// What passed every check of Login Widget or Mini App data, before it is recorded as used.
struct CheckedTelegramData: Sendable, Equatable {
    let signer: DataSigner
    let authDate: Int64
    let profile: TelegramProfile
    let rawUserInfo: String
}

/// Verifies Login Widget data and Mini App `initData` (the `access_token` of a `signInWithIdp` for
/// `telegram.org`): signature, then `auth_date`, then the user, then single use. The checks are pure
/// (`checked`); the only side effect, recording the data as used, happens last, in `verify`.
struct TelegramDataVerifier: Sendable {
    let widgetKeys: [BotKey]
    let miniAppKeys: [BotKey]
    let thirdPartyBotIds: [String]
    let thirdPartyKey: Ed25519PublicKey
    let thirdPartyWindowSeconds: Int64
    let skewSeconds: Int64
    let ledger: any NonceLedger
    let time: any TimeSource

    init(configuration: TelegramConfiguration, ledger: any NonceLedger, time: any TimeSource) throws {
        func keys(_ accepts: (TelegramBot) -> Bool, _ derive: (String) -> [UInt8]) -> [BotKey] {
            configuration.bots.compactMap { bot in
                guard accepts(bot), let token = bot.token?.value else { return nil }
                return BotKey(botId: bot.id, key: derive(token), windowSeconds: bot.authDateWindowSeconds)
            }
        }
        widgetKeys = keys(\.loginWidget, TelegramDataChecks.widgetKey)
        miniAppKeys = keys(\.miniApp, TelegramDataChecks.miniAppKey)
        thirdPartyBotIds = configuration.thirdPartyBotIds
        thirdPartyKey = try Ed25519PublicKey(rawRepresentation: Hex.decode(configuration.thirdPartyKey.hex) ?? [])
        thirdPartyWindowSeconds = configuration.authDateWindowSeconds
        skewSeconds = configuration.clockSkewSeconds
        self.ledger = ledger
        self.time = time
    }

    /// Mini App data always carries a `user` field (JSON); widget data carries the user's fields at the top level.
    static func form(of text: String) -> TelegramForm {
        let user = Array("user=".utf8)
        return text.utf8.split(separator: UInt8(ascii: "&")).contains { $0.starts(with: user) } ? .miniApp : .loginWidget
    }

    /// Verifies `text` and records it as used: a second sign-in with the same data is refused, across restarts
    /// and instances sharing the database. Throws `CredentialRefusal`, or the ledger's error.
    func verify(_ text: String) async throws -> VerifiedIdentity {
        let form = Self.form(of: text)
        let data: CheckedTelegramData
        do { data = try checked(text, form: form, now: time.nowSeconds) } catch { throw error.refusal(form) }
        // The record may go once the data could no longer pass the window anyway.
        let forgetAt = (data.authDate + data.signer.windowSeconds + skewSeconds + 1) * 1000
        guard try await ledger.consume(data.signer.replayKey, expiresAt: forgetAt) else {
            throw TelegramFailure.replay.refusal(form)
        }
        return data.profile.identity(rawUserInfo: data.rawUserInfo, echoed: ["oauthAccessToken": text])
    }

    /// Every check but single use, in order: format, signature, `auth_date`, user.
    func checked(_ text: String, form: TelegramForm, now: Int64) throws(TelegramFailure) -> CheckedTelegramData {
        let data = try TelegramSignedData(parsing: text, decoding: form == .loginWidget ? .form : .percentOnly)
        let signer = try self.signer(of: data, form: form)
        let authDate = try data.authDate()
        try TelegramDataChecks.freshness(authDate: authDate, now: now, windowSeconds: signer.windowSeconds,
                                         skewSeconds: skewSeconds)
        switch form {
        case .loginWidget:
            return CheckedTelegramData(signer: signer, authDate: authDate, profile: try TelegramProfile.widget(data),
                                       rawUserInfo: Self.widgetUserInfo(data))
        case .miniApp:
            // The user JSON exactly as Telegram signed it (it parsed as an object, or `miniApp` threw).
            return CheckedTelegramData(signer: signer, authDate: authDate, profile: try TelegramProfile.miniApp(data),
                                       rawUserInfo: String(decoding: data.bytes("user") ?? [], as: UTF8.self))
        }
    }

    /// A bot whose token we hold (HMAC), else, for Mini Apps, Telegram's Ed25519 signature for an allowlisted bot.
    private func signer(of data: TelegramSignedData, form: TelegramForm) throws(TelegramFailure) -> DataSigner {
        let keys = form == .loginWidget ? widgetKeys : miniAppKeys
        let thirdParty = form == .miniApp && !thirdPartyBotIds.isEmpty
        guard !keys.isEmpty || thirdParty else { throw .formNotAccepted }
        if let signer = TelegramDataChecks.firstPartySigner(data, keys: keys, form: form) { return signer }
        guard thirdParty else { throw .hashMismatch }
        return try TelegramDataChecks.thirdPartySigner(data, botIds: thirdPartyBotIds, key: thirdPartyKey,
                                                       windowSeconds: thirdPartyWindowSeconds)
    }

    /// The widget's fields but `hash` as a JSON object, `id` and `auth_date` as numbers.
    static func widgetUserInfo(_ data: TelegramSignedData) -> String {
        var info = JSONObject()
        for (name, value) in data.fields {
            let text = String(decoding: value, as: UTF8.self)
            if name == "id" || name == "auth_date", let number = Int64(text) {
                info[name] = .int(number)
            } else {
                info[name] = .string(text)
            }
        }
        return JSONSerializer.string(.object(info))
    }
}
