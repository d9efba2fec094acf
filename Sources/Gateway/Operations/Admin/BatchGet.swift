import AuthCore
import HTTP
import Storage
import WireFormats

/// `GET accounts:batchGet` (firebase-admin's `list_users`) and the legacy `POST downloadAccount`: the accounts in
/// ascending `localId` order, a page at a time.
///
/// The page token is the last `localId` returned (as the Firebase Auth Emulator's), and each page starts after
/// it: paging is by key, not by offset, so accounts created or deleted between pages never shift the others —
/// every account that exists throughout a listing is listed exactly once. A full page carries `nextPageToken`
/// even when nothing follows (Firebase does the same); the next page is then empty and has none.
enum BatchGet {
    static let defaultPageSize = 20
    static let maxPageSize = 1000

    struct Request: Sendable {
        let pageSize: Int
        let after: String?

        /// - Parameters: `maxResults` as sent (absent: 20; above 1000, or 0 and below as the emulator's `-1` for
        ///   "all": pages of 1000), `nextPageToken` as sent (absent or empty: the first page).
        init(maxResults: Int64?, nextPageToken: String?) {
            switch maxResults {
            case nil: pageSize = BatchGet.defaultPageSize
            case let value? where value <= 0 || value > Int64(BatchGet.maxPageSize): pageSize = BatchGet.maxPageSize
            case let value?: pageSize = Int(value)
            }
            after = nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        }

        /// The query string of `GET …/accounts:batchGet?maxResults=&nextPageToken=`.
        init(query: String?) throws {
            var maxResults: Int64?
            if let text = FormURLEncoding.value(named: "maxResults", in: query) {
                guard let value = Int32(text) else {
                    throw WireError.invalidParameter("Invalid value at 'max_results' (TYPE_INT32), \"\(String(text.prefix(32)))\"")
                }
                maxResults = Int64(value)
            }
            self.init(maxResults: maxResults, nextPageToken: FormURLEncoding.value(named: "nextPageToken", in: query))
        }

        /// The body of the legacy `downloadAccount` (`targetProjectId`, when given, names this gateway's project).
        init(_ body: RequestBody, projectId: String) throws {
            if let target = try body.string("targetProjectId"), target != projectId { throw WireError.notFound }
            self.init(maxResults: try body.int64("maxResults"), nextPageToken: try body.string("nextPageToken"))
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        .json(try await page(try Request(query: context.request.query), services))
    }

    static func legacyDownload(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        .json(try await page(try Request(context.body, projectId: services.configuration.projectId), services))
    }

    static func page(_ request: Request, _ services: GatewayServices) async throws -> JSONObject {
        let page = try await services.store.read { tx in
            try tx.users(afterLocalId: request.after, limit: request.pageSize).map { ($0, try tx.identities(localId: $0.localId)) }
        }
        var response: JSONObject = ["kind": "identitytoolkit#DownloadAccountResponse"]
        if !page.isEmpty { response["users"] = .array(page.map { .object(UserInfoJSON.render($0.0, identities: $0.1)) }) }
        if page.count == request.pageSize, let last = page.last { response["nextPageToken"] = .string(last.0.localId) }
        return response
    }
}
