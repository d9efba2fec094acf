import Storage

/// Refresh tokens issued before tokens named their project (`gh1.`) belong to the project of the first
/// gateway started on the database with a build that binds them: it records itself in the settings once,
/// and from then on only that project accepts them.
///
/// Nothing in an old token or its row says which project issued it. The usual upgrade restarts the same
/// gateway with the new build, which makes the first project the right one; a database that was already
/// shared by several project ids (see the README) keeps only the first one's old sessions.
enum UnboundRefreshTokens {
    static let ownerKey = "refreshTokens.unboundProject"

    /// Records `projectId` as the owner unless one is recorded; returns whether `projectId` is the owner.
    static func claim(for projectId: String, in store: any UserStore) async throws -> Bool {
        try await store.write { tx in
            if let owner = try tx.setting(ownerKey) { return owner == projectId }
            try tx.setSetting(ownerKey, value: projectId)
            return true
        }
    }
}
