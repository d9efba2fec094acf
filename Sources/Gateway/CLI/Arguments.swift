/// Parsed command line: positional words and `--flag value` / `--flag=value` / boolean `--flag` options.
struct Arguments: Equatable {
    static let booleanFlags: Set = ["emulator", "allow-non-loopback", "help"]
    static let valueFlags: Set = ["host", "port", "data-dir", "project-id", "config", "database-url", "master-key-file",
                                  "from", "to", "key-file", "gateway-url", "certificate", "key-id",
                                  // users import: firebase-tools' auth:import hash flags, and the file format
                                  "hash-algo", "hash-key", "salt-separator", "rounds", "mem-cost", "parallelization",
                                  "block-size", "dk-len", "hash-input-order", "format", "batch-size"]

    var positional: [String] = []
    var flags: [String: String] = [:]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "-h" { flags["help"] = ""; continue }
            guard word.hasPrefix("--") else { positional.append(word); continue }
            let body = word.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            guard Arguments.booleanFlags.contains(name) || Arguments.valueFlags.contains(name) else {
                throw Failure(description: "unknown option --\(name) (see gateway --help)")
            }
            if let equals = body.firstIndex(of: "=") {
                flags[String(body[..<equals])] = String(body[body.index(after: equals)...])
            } else if Arguments.booleanFlags.contains(String(body)) {
                flags[String(body)] = ""
            } else {
                guard index < arguments.count else { throw Failure(description: "--\(body) needs a value") }
                flags[String(body)] = arguments[index]
                index += 1
            }
        }
    }
}
