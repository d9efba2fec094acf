/// Renders metric families in the Prometheus text exposition format (version 0.0.4): `# HELP` and `# TYPE`
/// once per family, series sorted by their labels so that two scrapes list them in the same order, and
/// histograms as cumulative `_bucket` series with `le`, then `_sum` and `_count`.
enum PrometheusText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    static func render(_ families: [(MetricFamily, [(labels: [String], value: SeriesValue)])]) -> String {
        var out = ""
        for (family, series) in families.sorted(by: { $0.0.name < $1.0.name }) {
            out += "# HELP \(family.name) \(escapeHelp(family.help))\n# TYPE \(family.name) \(family.kind.rawValue)\n"
            for (labels, value) in series.sorted(by: { $0.labels.lexicographicallyPrecedes($1.labels) }) {
                let pairs = zip(family.labelNames, labels).map { ($0, $1) }
                switch value {
                case .number(let number):
                    out += "\(family.name)\(labelText(pairs)) \(format(number))\n"
                case .histogram(let counts, let sum, let count):
                    var cumulative: UInt64 = 0
                    for (index, bound) in (family.buckets + [Double.infinity]).enumerated() {
                        cumulative += counts[index]
                        out += "\(family.name)_bucket\(labelText(pairs + [("le", format(bound))])) \(cumulative)\n"
                    }
                    out += "\(family.name)_sum\(labelText(pairs)) \(format(sum))\n"
                    out += "\(family.name)_count\(labelText(pairs)) \(count)\n"
                }
            }
        }
        return out
    }

    static func format(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func labelText(_ pairs: [(String, String)]) -> String {
        pairs.isEmpty ? "" : "{" + pairs.map { "\($0.0)=\"\(escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
    }

    private static func escapeLabel(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    private static func escapeHelp(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
