import Foundation

/// One email with a plain-text and an HTML alternative, rendered as RFC 5322 + MIME bytes for SMTP.
///
/// Non-ASCII subjects and display names are RFC 2047 encoded and both bodies are base64, so Persian text
/// survives any relay. Header values are refused if they contain line breaks (header injection).
public struct MailMessage: Sendable, Equatable, Codable {
    public var fromAddress: String
    public var fromName: String?
    public var to: String
    public var subject: String
    public var text: String
    public var html: String
    /// Seconds since the epoch, for the `Date` header.
    public var date: Int64
    /// The `Message-ID` (without angle brackets); the same id on every retry lets receivers de-duplicate.
    public var messageId: String

    public init(fromAddress: String, fromName: String?, to: String, subject: String, text: String, html: String,
                date: Int64, messageId: String) {
        self.fromAddress = fromAddress
        self.fromName = fromName
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.date = date
        self.messageId = messageId
    }

    /// The wire form (CRLF line ends). Throws `SMTPError.invalidMessage` for unusable header values.
    public func rendered(boundary: String) throws(SMTPError) -> [UInt8] {
        // Scalars, not Characters: "\r\n" is one Character that equals neither "\r" nor "\n".
        for value in [fromAddress, to, messageId, fromName ?? ""]
        where value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw SMTPError.invalidMessage("a header value contains a line break")
        }
        let from = fromName.map { "\(Self.encodedWord($0)) <\(fromAddress)>" } ?? fromAddress
        var lines = [
            "From: \(from)",
            "To: \(to)",
            "Subject: \(Self.encodedWord(subject))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(messageId)>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
        ]
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            lines += ["--\(boundary)", "Content-Type: \(type); charset=UTF-8", "Content-Transfer-Encoding: base64", ""]
            lines.append(Data(body.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]))
        }
        lines += ["--\(boundary)--", ""]
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    /// `=?UTF-8?B?...?=` for non-ASCII text; ASCII without specials is kept readable.
    static func encodedWord(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0 != "=" && $0 != "?" }
        if plain { return text }
        return "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }

    static func rfc5322Date(_ seconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}

/// Why a message was not accepted by the SMTP server.
public enum SMTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server could not be reached (refused, DNS, TLS handshake, timeout): worth retrying later.
    case unreachable(String)
    /// The server answered but refused (authentication, recipient, policy), with its description.
    case rejected(String)
    /// The message cannot be sent as built (bad header value); retrying will not help.
    case invalidMessage(String)

    public var description: String {
        switch self {
        case .unreachable(let d): return "SMTP server unreachable: \(d)"
        case .rejected(let d): return "SMTP server refused the message: \(d)"
        case .invalidMessage(let d): return "invalid message: \(d)"
        }
    }
}
