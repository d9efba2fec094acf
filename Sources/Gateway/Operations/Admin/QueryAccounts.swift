import AuthCore
import Storage
import WireFormats

/// `accounts:query` and `:queryAccounts`: counts accounts and returns a page of them, ordered by `localId`
/// (`sortBy` `USER_ID`, the one order the gateway keeps an index for), ascending or descending, from `offset`,
/// at most `limit` (500 by default and at most). An `expression` narrows the result to the account with that
/// `email`, `userId` or `phoneNumber` (as Firebase, only the first expression counts). `offset` is at most
/// 100 000 (each skipped account is read). With
/// `returnUserInfo: false` only the count is returned. `recordsCount` is a string (int64 on the wire).
enum QueryAccounts {
    static let maxLimit: Int64 = 500
    /// Skipping costs a read per account skipped: deeper listings page by uid with `accounts:batchGet`.
    static let maxOffset: Int64 = 100_000
    /// Rows read per store call while skipping `offset` accounts (bounded memory for any offset).
    static let chunk = 1000

    enum Filter: Sendable, Equatable {
        case email(String)
        case localId(String)
        case phoneNumber(String)
    }

    struct Request: Sendable {
        var returnUserInfo = true
        var limit = QueryAccounts.maxLimit
        var offset: Int64 = 0
        var descending = false
        var filter: Filter?

        init(_ body: RequestBody) throws {
            returnUserInfo = try body.bool("returnUserInfo") ?? true
            limit = try body.int64("limit") ?? QueryAccounts.maxLimit
            guard (1...QueryAccounts.maxLimit).contains(limit) else {
                throw WireError.invalidParameter("limit must be between 1 and \(QueryAccounts.maxLimit)")
            }
            offset = try body.int64("offset") ?? 0
            guard (0...QueryAccounts.maxOffset).contains(offset) else {
                throw WireError.invalidParameter("offset must be between 0 and \(QueryAccounts.maxOffset); page with accounts:batchGet beyond")
            }
            switch try body.enumName("sortBy", WireEnums.sortByField) {
            case nil, "USER_ID", "SORT_BY_FIELD_UNSPECIFIED": break
            case let other?: throw WireError.invalidParameter("sortBy \(String(other.prefix(40))) is not supported; use USER_ID")
            }
            switch try body.enumName("order", WireEnums.order) {
            case nil, "ASC", "ORDER_UNSPECIFIED": descending = false
            case "DESC": descending = true
            case let other?: throw WireError.invalidParameter("order must be ASC or DESC, not \(String(other.prefix(40)))")
            }
            if let expression = try body.objects("expression")?.first {
                // Every field is type-checked, the first one given is the filter.
                let condition = RequestBody(object: expression)
                let (email, localId, phone) = (try condition.string("email"), try condition.string("userId"),
                                               try condition.string("phoneNumber"))
                filter = email.map { .email($0.lowercased()) } ?? localId.map { .localId($0) } ?? phone.map { .phoneNumber($0) }
            }
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request = try Request(context.body)
        let (count, page) = try await services.store.read { tx in try run(request, tx) }
        var response: JSONObject = ["recordsCount": .string(String(count))]
        if request.returnUserInfo {
            response["userInfo"] = .array(page.map { .object(UserInfoJSON.render($0.0, identities: $0.1)) })
        }
        return .json(response)
    }

    static func run(_ request: Request, _ tx: any StoreTransaction) throws -> (Int, [(UserRecord, [ProviderIdentity])]) {
        let matches: [UserRecord]
        let count: Int
        if let filter = request.filter {
            let found: UserRecord? = switch filter {
            case .email(let email): try tx.user(email: email)
            case .localId(let id): try tx.user(localId: id)
            case .phoneNumber(let phone): try tx.user(phoneNumber: phone)
            }
            count = found == nil ? 0 : 1
            matches = request.offset == 0 ? (found.map { [$0] } ?? []) : []
        } else {
            count = try tx.userCount()
            matches = try page(request, tx)
        }
        guard request.returnUserInfo else { return (count, []) }
        return (count, try matches.map { ($0, try tx.identities(localId: $0.localId)) })
    }

    /// The page after skipping `offset` accounts, reading at most `chunk` rows at a time.
    private static func page(_ request: Request, _ tx: any StoreTransaction) throws -> [UserRecord] {
        func next(after cursor: String?, _ limit: Int) throws -> [UserRecord] {
            request.descending ? try tx.usersDescending(beforeLocalId: cursor, limit: limit)
                : try tx.users(afterLocalId: cursor, limit: limit)
        }
        var cursor: String?
        var skip = request.offset
        while skip > 0 {
            let skipped = try next(after: cursor, Int(min(skip, Int64(chunk))))
            guard let last = skipped.last else { return [] }
            cursor = last.localId
            skip -= Int64(skipped.count)
        }
        return try next(after: cursor, Int(request.limit))
    }
}
