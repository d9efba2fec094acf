/// Requests that several types make.
extension GatewayBackend {
    /// `accounts:lookup` for the user of `idToken`.
    func lookup(idToken: String) async throws -> UserProfile {
        let response = try await post(.lookup, ["idToken": idToken])
        guard let first = response.objects("users").first, let profile = UserProfile(lookup: first) else {
            throw AuthError(.userNotFound, "The gateway's lookup answer has no user.")
        }
        return profile
    }
}
