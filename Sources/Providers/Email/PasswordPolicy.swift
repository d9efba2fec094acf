import AuthCore

/// What a new password must satisfy. Firebase's default is only "at least 6 characters"; Identity Platform
/// adds a maximum length and required character classes, which operators can switch on here.
public struct PasswordPolicy: Sendable, Equatable {
    public var minLength: Int
    public var maxLength: Int
    public var requireLowercase: Bool
    public var requireUppercase: Bool
    public var requireDigit: Bool
    public var requireNonAlphanumeric: Bool

    /// Identity Platform's set of characters that count as non-alphanumeric.
    public static let nonAlphanumeric: Set<Character> = Set("^$*.[]{}()?\"!@#%&/\\,><':;|_~`")

    public init(minLength: Int = 6, maxLength: Int = 4096, requireLowercase: Bool = false,
                requireUppercase: Bool = false, requireDigit: Bool = false, requireNonAlphanumeric: Bool = false) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.requireLowercase = requireLowercase
        self.requireUppercase = requireUppercase
        self.requireDigit = requireDigit
        self.requireNonAlphanumeric = requireNonAlphanumeric
    }

    /// Throws `MISSING_PASSWORD` for nil and `WEAK_PASSWORD : <what is wrong>` for a password the policy
    /// refuses. The detail for the length rule is Firebase's exact sentence, which SDKs show to users.
    public func check(_ password: String?) throws(AuthError) -> String {
        guard let password else { throw AuthError(.missingPassword) }
        let length = password.count
        if length < minLength {
            throw AuthError(.weakPassword, "Password should be at least \(minLength) characters")
        }
        if length > maxLength {
            throw AuthError(.weakPassword, "Password should be at most \(maxLength) characters")
        }
        var missing: [String] = []
        if requireLowercase && !password.contains(where: { $0.isLowercase }) { missing.append("a lower-case letter") }
        if requireUppercase && !password.contains(where: { $0.isUppercase }) { missing.append("an upper-case letter") }
        if requireDigit && !password.contains(where: { $0.isASCII && $0.isNumber }) { missing.append("a digit") }
        if requireNonAlphanumeric && !password.contains(where: { Self.nonAlphanumeric.contains($0) }) {
            missing.append("a non-alphanumeric character")
        }
        if !missing.isEmpty {
            throw AuthError(.weakPassword, "Password must contain " + missing.joined(separator: ", "))
        }
        return password
    }
}
