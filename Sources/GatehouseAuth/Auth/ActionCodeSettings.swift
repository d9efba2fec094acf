import Foundation

/// Where an action link (password reset, email verification, email sign-in) sends the user afterwards
/// (FirebaseAuth's `ActionCodeSettings`, a class as there: `let settings = ActionCodeSettings()`, then set its
/// properties). The URL's host must be on the gateway's `authorizedDomains`.
///
/// `@unchecked Sendable`: every property is read and written under one lock.
public final class ActionCodeSettings: @unchecked Sendable {
    private struct Values {
        var url: URL?
        var handleCodeInApp = false
        var iOSBundleID: String?
        var androidPackageName: String?
        var androidInstallIfNotAvailable = false
        var androidMinimumVersion: String?
    }

    private let values = Locked(Values())

    public init() {}

    /// The continue URL.
    public var url: URL? {
        get { values.current.url }
        set { values.withLock { $0.url = newValue } }
    }

    /// True to open the link in the app (required for email sign-in links).
    public var handleCodeInApp: Bool {
        get { values.current.handleCodeInApp }
        set { values.withLock { $0.handleCodeInApp = newValue } }
    }

    public var iOSBundleID: String? { values.current.iOSBundleID }
    public var androidPackageName: String? { values.current.androidPackageName }
    public var androidInstallIfNotAvailable: Bool { values.current.androidInstallIfNotAvailable }
    public var androidMinimumVersion: String? { values.current.androidMinimumVersion }

    public func setIOSBundleID(_ bundleID: String) {
        values.withLock { $0.iOSBundleID = bundleID }
    }

    public func setAndroidPackageName(_ packageName: String, installIfNotAvailable: Bool, minimumVersion: String?) {
        values.withLock { values in
            values.androidPackageName = packageName
            values.androidInstallIfNotAvailable = installIfNotAvailable
            values.androidMinimumVersion = minimumVersion
        }
    }

    /// The settings' fields of `accounts:sendOobCode`.
    var fields: [String: any Sendable] {
        let values = values.current
        var fields: [String: any Sendable] = [:]
        if let url = values.url { fields["continueUrl"] = url.absoluteString }
        if values.handleCodeInApp { fields["canHandleCodeInApp"] = true }
        if let bundleID = values.iOSBundleID { fields["iOSBundleId"] = bundleID }
        if let packageName = values.androidPackageName {
            fields["androidPackageName"] = packageName
            fields["androidInstallApp"] = values.androidInstallIfNotAvailable
            if let minimumVersion = values.androidMinimumVersion { fields["androidMinimumVersion"] = minimumVersion }
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
