import Foundation

/// Where an action link (password reset, email verification, email sign-in) sends the user afterwards
/// (FirebaseAuth's `ActionCodeSettings`). The URL's host must be on the gateway's `authorizedDomains`.
public struct ActionCodeSettings: Sendable {
    /// The continue URL.
    public var url: URL?
    /// True to open the link in the app (required for email sign-in links).
    public var handleCodeInApp = false
    public var iOSBundleID: String?
    public var androidPackageName: String?
    public var androidInstallIfNotAvailable = false
    public var androidMinimumVersion: String?

    public init() {}

    public mutating func setIOSBundleID(_ bundleID: String) { iOSBundleID = bundleID }

    public mutating func setAndroidPackageName(_ packageName: String, installIfNotAvailable: Bool, minimumVersion: String?) {
        androidPackageName = packageName
        androidInstallIfNotAvailable = installIfNotAvailable
        androidMinimumVersion = minimumVersion
    }

    /// The settings' fields of `accounts:sendOobCode`.
    var fields: [String: any Sendable] {
        var fields: [String: any Sendable] = [:]
        if let url { fields["continueUrl"] = url.absoluteString }
        if handleCodeInApp { fields["canHandleCodeInApp"] = true }
        if let iOSBundleID { fields["iOSBundleId"] = iOSBundleID }
        if let androidPackageName {
            fields["androidPackageName"] = androidPackageName
            fields["androidInstallApp"] = androidInstallIfNotAvailable
            if let androidMinimumVersion { fields["androidMinimumVersion"] = androidMinimumVersion }
        }
        return fields
    }
}

/// What an action code is for (FirebaseAuth's `ActionCodeInfo`), from `Auth.checkActionCode(_:)`.
public struct ActionCodeInfo: Sendable, Equatable {
    public let operation: ActionCodeOperation
    /// The address the code is about; for a change of address, the new one.
    public let email: String
    /// For a change of address, the address before it.
    public let previousEmail: String?
}

public enum ActionCodeOperation: Sendable, Equatable {
    case passwordReset, verifyEmail, recoverEmail, emailLink, verifyAndChangeEmail, unknown

    init(requestType: String?) {
        switch requestType {
        case "PASSWORD_RESET": self = .passwordReset
        case "VERIFY_EMAIL": self = .verifyEmail
        case "RECOVER_EMAIL": self = .recoverEmail
        case "EMAIL_SIGNIN": self = .emailLink
        case "VERIFY_AND_CHANGE_EMAIL": self = .verifyAndChangeEmail
        default: self = .unknown
        }
    }
}
