import Storage

/// Store errors in words for an operator at the command line (Swift's debug form of an enum is not a message).
enum StoreErrorText {
    static func describe(_ error: StoreError) -> String {
        switch error {
        case .uniqueViolation(let constraint): "the database refused a duplicate (\(constraint))"
        case .notFound: "a record the command needs does not exist"
        case .corrupt(let detail): "the database is damaged or not a Gatehouse database: \(detail)"
        case .unavailable(let detail): "the database is unavailable: \(detail)"
        case .invalidValue(let detail): "the database refused a value: \(detail)"
        case .readOnly: "the database was opened read-only"
        case .schemaTooNew(let found, let known):
            "the database was migrated by a newer gateway (schema \(found); this build knows \(known)); run the newer build or restore a backup"
        }
    }
}
