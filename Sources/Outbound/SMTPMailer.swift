import CCurl

/// Where and how to submit mail.
public struct SMTPSettings: Sendable, Equatable {
    /// How the connection is protected. `smtps://` URLs are always TLS from the first byte.
    public enum Security: String, Sendable, CaseIterable {
        /// Plain SMTP (only sensible for a relay on loopback).
        case none
        /// STARTTLS when the server offers it.
        case opportunistic
        /// STARTTLS or fail (the default: credentials and links never cross the network in clear).
        case required
    }

    /// `smtp://host:port` or `smtps://host:port`.
    public var url: String
    public var username: String?
    public var password: String?
    public var security: Security
    /// Connect plus whole-transfer limit.
    public var timeoutSeconds: Double
    public var caBundlePath: String?

    public init(url: String, username: String? = nil, password: String? = nil, security: Security = .required,
                timeoutSeconds: Double = 30, caBundlePath: String? = nil) {
        self.url = url
        self.username = username
        self.password = password
        self.security = security
        self.timeoutSeconds = timeoutSeconds
        self.caBundlePath = caBundlePath
    }
}

/// Printing the settings (in a log line or an error) never shows the password.
extension SMTPSettings: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        "SMTPSettings(url: \(url), username: \(username ?? "none"), password: \(password == nil ? "none" : "<redacted>"), "
            + "security: \(security.rawValue), timeoutSeconds: \(timeoutSeconds))"
    }
    public var debugDescription: String { description }
}

/// Something that delivers mail (the SMTP client, or a fake in tests).
public protocol MailSending: Sendable {
    /// Blocks until the server accepted or refused the message: call it from a worker thread.
    func send(_ message: MailMessage) throws(SMTPError)
}

/// Submits mail over SMTP with libcurl (STARTTLS or implicit TLS, AUTH, timeouts). Each call opens its own
/// connection: action emails are rare next to requests, and a fresh connection never inherits a half-broken
/// session from a failed send.
public struct SMTPMailer: MailSending {
    public let settings: SMTPSettings

    public init(settings: SMTPSettings) {
        self.settings = settings
    }

    public func send(_ message: MailMessage) throws(SMTPError) {
        let payload = try message.rendered(boundary: "=_gatehouse_" + message.messageId.filter { $0.isLetter || $0.isNumber })
        guard let handle = curl_easy_init() else { throw SMTPError.unreachable("curl_easy_init failed") }
        defer { curl_easy_cleanup(handle) }
        let recipients: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "<\(message.to)>")
        defer { curl_slist_free_all(recipients) }
        let source = UploadSource(payload)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        errorBuffer[0] = 0
        let timeout = Int(max(1, settings.timeoutSeconds * 1000))
        let code: CURLcode = withExtendedLifetime(source) {
            let context = Unmanaged.passUnretained(source).toOpaque()
            var results = [
                shim_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
                shim_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
                shim_setopt_str(handle, CURLOPT_URL, settings.url),
                shim_setopt_long(handle, CURLOPT_USE_SSL, Self.sslLevel(settings.security)),
                shim_setopt_str(handle, CURLOPT_MAIL_FROM, "<\(message.fromAddress)>"),
                shim_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients),
                shim_setopt_long(handle, CURLOPT_UPLOAD, 1),
                shim_setopt_long(handle, CURLOPT_INFILESIZE, payload.count),
                shim_setopt_readfn(handle, CURLOPT_READFUNCTION, smtpReadPayload),
                shim_setopt_ptr(handle, CURLOPT_READDATA, context),
                shim_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, timeout),
                shim_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeout),
                shim_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            ]
            if let username = settings.username { results.append(shim_setopt_str(handle, CURLOPT_USERNAME, username)) }
            if let password = settings.password { results.append(shim_setopt_str(handle, CURLOPT_PASSWORD, password)) }
            if let ca = settings.caBundlePath { results.append(shim_setopt_str(handle, CURLOPT_CAINFO, ca)) }
            guard results.allSatisfy({ $0 == CURLE_OK }) else { return CURLE_FAILED_INIT }
            return curl_easy_perform(handle)
        }
        guard code != CURLE_OK else { return }
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_SSL_CONNECT_ERROR,
             CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_USE_SSL_FAILED, CURLE_PEER_FAILED_VERIFICATION:
            throw SMTPError.unreachable(detail)
        default:
            throw SMTPError.rejected(detail)
        }
    }

    static func sslLevel(_ security: SMTPSettings.Security) -> Int {
        switch security {
        case .none: return Int(CURLUSESSL_NONE.rawValue)
        case .opportunistic: return Int(CURLUSESSL_TRY.rawValue)
        case .required: return Int(CURLUSESSL_ALL.rawValue)
        }
    }
}

/// The message bytes libcurl reads while uploading (DATA), confined to the sending thread.
final class UploadSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

private func smtpReadPayload(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                             _ context: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let context else { return 0 }
    let source = Unmanaged<UploadSource>.fromOpaque(context).takeUnretainedValue()
    let amount = min(size * count, source.bytes.count - source.offset)
    guard amount > 0 else { return 0 }
    source.bytes.withUnsafeBufferPointer { all in
        UnsafeMutableRawPointer(buffer).copyMemory(from: all.baseAddress! + source.offset, byteCount: amount)
    }
    source.offset += amount
    return amount
}
