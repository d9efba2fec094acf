import Crypto
import WireFormats

/// A bot's HMAC key for one form, derived from its token once at start.
struct BotKey: Sendable {
    let botId: String
    let key: [UInt8]
    let windowSeconds: Int64
}

/// Who vouched for signed data: a bot whose token we hold (HMAC), or Telegram itself for an allowlisted bot
/// (Ed25519). `replayKey` is what makes the data single-use: the part an attacker cannot change without breaking
/// the check (the HMAC for first-party data; the Ed25519 signature for third-party data, whose `hash` is not
/// covered by the signature and could be rewritten at will).
struct DataSigner: Sendable, Equatable {
    let botId: String
    let windowSeconds: Int64
    let replayKey: [UInt8]
}

/// The pure checks on Login Widget and Mini App data: key derivation, the HMAC, Telegram's Ed25519 signature,
/// and the `auth_date` window. No I/O; the single-use record is the verifier's job.
enum TelegramDataChecks {
    /// Login Widget: the HMAC key is SHA-256 of the bot token.
    static func widgetKey(token: String) -> [UInt8] { SHA256.hash(token) }

    /// Mini App: the HMAC key is HMAC-SHA256 keyed with the constant "WebAppData" over the bot token (the constant
    /// is the key, the token the message).
    static func miniAppKey(token: String) -> [UInt8] {
        HMACSHA256.authenticate(key: Array("WebAppData".utf8), message: Array(token.utf8))
    }

    /// The bot whose key signed `data` (every field but `hash`, `signature` included), compared in constant time.
    static func firstPartySigner(_ data: TelegramSignedData, keys: [BotKey], form: TelegramForm) -> DataSigner? {
        let message = data.dataCheckString()
        for bot in keys where constantTimeEquals(HMACSHA256.authenticate(key: bot.key, message: message), data.hash) {
            let prefix: [UInt8] = form == .loginWidget ? Array("widget:".utf8) : Array("miniapp:".utf8)
            return DataSigner(botId: bot.botId, windowSeconds: bot.windowSeconds, replayKey: SHA256.hash(prefix + data.hash))
        }
        return nil
    }

    /// Third-party validation: `signature` (base64url, Ed25519 by Telegram's key) over
    /// `"<bot_id>:WebAppData\n"` + the data-check-string without `hash` and `signature`, for an allowlisted bot.
    static func thirdPartySigner(_ data: TelegramSignedData, botIds: [String], key: Ed25519PublicKey,
                                 windowSeconds: Int64) throws(TelegramFailure) -> DataSigner {
        guard let encoded = data.text("signature"), !encoded.isEmpty else { throw .missingSignature }
        guard let signature = Base64URL.decode(encoded), signature.count == Ed25519PublicKey.signatureByteCount else {
            throw .badSignature
        }
        let checked = data.dataCheckString(excluding: ["signature"])
        for botId in botIds where key.isValidSignature(signature, for: Array("\(botId):WebAppData\n".utf8) + checked) {
            return DataSigner(botId: botId, windowSeconds: windowSeconds, replayKey: SHA256.hash(Array("ed25519:".utf8) + signature))
        }
        throw .badSignature
    }

    /// `auth_date` no older than the window and not in the future beyond the clock skew.
    static func freshness(authDate: Int64, now: Int64, windowSeconds: Int64, skewSeconds: Int64) throws(TelegramFailure) {
        if authDate > now + skewSeconds { throw .future }
        if now - authDate > windowSeconds { throw .stale(windowSeconds: windowSeconds) }
    }
}
