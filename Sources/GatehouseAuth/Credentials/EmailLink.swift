import Foundation

/// Reads an email sign-in link: the gateway's action link (`…/__/auth/action?mode=signIn&oobCode=…`), the app's
/// continue URL the action page redirects to (the same parameters appended), or a link that wraps one of those
/// in a `link` or `deep_link_id` parameter (as Firebase Dynamic Links did).
enum EmailLink {
    static func isSignInLink(_ text: String) -> Bool {
        guard let parameters = parameters(of: text) else { return false }
        return parameters["mode"] == "signIn" && !(parameters["oobCode"] ?? "").isEmpty
    }

    static func oobCode(in text: String) -> String? {
        parameters(of: text)?["oobCode"]
    }

    /// The parameters of the innermost link that has an `oobCode`.
    private static func parameters(of text: String, depth: Int = 0) -> [String: String]? {
        guard depth < 3, let components = URLComponents(string: text) else { return nil }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] where parameters[item.name] == nil {
            parameters[item.name] = item.value ?? ""
        }
        if parameters["oobCode"] != nil { return parameters }
        for key in ["link", "deep_link_id"] {
            if let inner = parameters[key], let found = Self.parameters(of: inner, depth: depth + 1) { return found }
        }
        return nil
    }
}

/// Email and password, and email sign-in links (`password` and `emailLink` in FirebaseAuth's terms).
public enum EmailAuthProvider {
    public static let id = "password"

    public static func credential(withEmail email: String, password: String) -> EmailAuthCredential {
        EmailAuthCredential(email: email, payload: .password(email: email, password: password))
    }

    /// The link from the sign-in email (see `Auth.sendSignInLink(toEmail:actionCodeSettings:)`).
    public static func credential(withEmail email: String, link: String) -> EmailAuthCredential {
        EmailAuthCredential(email: email, payload: .emailLink(email: email, oobCode: EmailLink.oobCode(in: link) ?? ""))
    }
}
