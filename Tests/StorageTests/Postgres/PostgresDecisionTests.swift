import Storage
@testable import StoragePostgres
import Testing

/// The pure parts of the PostgreSQL backend: error mapping, retry decisions, URL redaction.
@Suite("PostgreSQL backend decisions")
struct PostgresDecisionTests {
    private func failure(_ state: String?, constraint: String? = nil, lost: Bool = false) -> PostgresFailure {
        PostgresFailure(sqlState: state, message: "m", constraint: constraint, connectionLost: lost)
    }

    @Test("every unique constraint of the schema maps to its UniqueConstraint, and all are covered")
    func uniqueConstraints() {
        for (name, constraint) in PostgresFailures.uniqueConstraints {
            #expect(PostgresFailures.storeError(for: failure("23505", constraint: name)) == .uniqueViolation(constraint))
        }
        #expect(Set(PostgresFailures.uniqueConstraints.values) == Set(UniqueConstraint.allCases))
        #expect(PostgresFailures.storeError(for: failure("23505", constraint: "mystery"))
            == .corrupt("unrecognised unique constraint mystery: m"))
    }

    @Test("foreign-key, read-only, corruption and timeout errors map to the store's vocabulary")
    func otherErrors() {
        #expect(PostgresFailures.storeError(for: failure("23503")) == .notFound)
        #expect(PostgresFailures.storeError(for: failure("25006")) == .readOnly)
        #expect(PostgresFailures.storeError(for: failure("XX001")) == .corrupt("PostgreSQL: m"))
        #expect(PostgresFailures.storeError(for: failure("57014")) == .unavailable("PostgreSQL statement timeout: m"))
        #expect(PostgresFailures.storeError(for: failure(nil, lost: true)) == .unavailable("PostgreSQL: m"))
    }

    @Test("lost connections, shutdowns, deadlocks and serialization failures are retryable; violations are not")
    func retryable() {
        for state in ["08006", "08001", "57P01", "57P02", "57P03", "40001", "40P01"] {
            #expect(PostgresFailures.isRetryable(failure(state)), "\(state)")
        }
        #expect(PostgresFailures.isRetryable(failure(nil, lost: true)))
        for state in ["23505", "23503", "57014", "42P01", "22021"] {
            #expect(!PostgresFailures.isRetryable(failure(state)), "\(state)")
        }
        #expect(PostgresFailures.isCatchable(failure("23505", constraint: "users_email_key")))
        #expect(PostgresFailures.isCatchable(failure("23503")))
        #expect(!PostgresFailures.isCatchable(failure("40P01")))
    }

    @Test("a lost connection backs off exponentially until the budget is spent")
    func connectionBackoff() {
        let policy = RetryPolicy(budgetMilliseconds: 1_000)
        let lost = failure(nil, lost: true)
        let delays = (1...6).map { policy.delay(after: lost, attempt: $0, elapsedMilliseconds: 0) }
        #expect(delays == [20, 40, 80, 160, 320, 500])
        #expect(policy.delay(after: lost, attempt: 3, elapsedMilliseconds: 900) == 80)
        #expect(policy.delay(after: lost, attempt: 3, elapsedMilliseconds: 950) == nil)
        #expect(RetryPolicy(budgetMilliseconds: 0).delay(after: lost, attempt: 1, elapsedMilliseconds: 0) == nil)
    }

    @Test("a deadlock is retried a few times at once; other failures never")
    func conflictRetries() {
        let policy = RetryPolicy(budgetMilliseconds: 0)
        let deadlock = failure("40P01")
        #expect((1...5).map { policy.delay(after: deadlock, attempt: $0, elapsedMilliseconds: 0) } == [5, 10, 15, 20, nil])
        #expect(policy.delay(after: failure("23505", constraint: "users_pkey"), attempt: 1, elapsedMilliseconds: 0) == nil)
    }

    @Test("URLs are recognised and their passwords redacted")
    func urls() {
        #expect(ConnectionURL.isPostgres("postgres://h/db"))
        #expect(ConnectionURL.isPostgres("PostgreSQL://h/db"))
        #expect(!ConnectionURL.isPostgres("sqlite:///x"))
        #expect(ConnectionURL.redacted("postgres://gate:s3cr%40t@db.example:5432/auth?sslmode=require")
            == "postgres://gate:***@db.example:5432/auth?sslmode=require")
        #expect(ConnectionURL.redacted("postgresql://gate@h/auth?password=hunter2&sslmode=verify-full")
            == "postgresql://gate@h/auth?password=***&sslmode=verify-full")
        #expect(ConnectionURL.redacted("postgresql:///auth?host=/run/postgresql") == "postgresql:///auth?host=/run/postgresql")
        #expect(ConnectionURL.redacted("postgres://a:b@c@h/db") == "postgres://a:***@h/db")
        #expect(ConnectionURL.redacted("postgresql://h/auth?sslkey=/k&sslpassword=k3y-pass&PASSWORD=x")
            == "postgresql://h/auth?sslkey=/k&sslpassword=***&password=***")
    }
}
