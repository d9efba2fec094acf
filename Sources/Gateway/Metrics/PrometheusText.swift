/// Renders metric families in the Prometheus text exposition format (version 0.0.4): `# HELP` and `# TYPE`
/// once per family, series sorted by their labels so that two scrapes list them in the same order, and
/// histograms as cumulative `_bucket` series with `le`, then `_sum` and `_count`.
enum PrometheusText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Why bytes, and each series' labels escaped once: a scrape renders a few hundred series, most of them
    /// histogram buckets that share their labels; escaping the labels again for every bucket line, one `Character`
    /// at a time, made a scrape cost ~760 µs of CPU (`bench/endpoints.py`).
    static func render(_ families: [(MetricFamily, [(labels: [String], value: SeriesValue)])]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(16 * 1024)
        for (family, series) in families.sorted(by: { $0.0.name < $1.0.name }) {
            let name = Array(family.name.utf8)
            out += "# HELP ".utf8; out += name; out += " ".utf8; appendEscaped(family.help, label: false, to: &out)
            out += "\n# TYPE ".utf8; out += name; out += " \(family.kind.rawValue)\n".utf8
            let bounds = (family.buckets + [Double.infinity]).map { Array("le=\"\(format($0))\"".utf8) }
            for (labels, value) in series.sorted(by: { $0.labels.lexicographicallyPrecedes($1.labels) }) {
                // `name="value",…` without braces, built once for every line of the series.
                var pairs: [UInt8] = []
                for (labelName, labelValue) in zip(family.labelNames, labels) {
                    if !pairs.isEmpty { pairs.append(UInt8(ascii: ",")) }
                    pairs += labelName.utf8; pairs += "=\"".utf8
                    appendEscaped(labelValue, label: true, to: &pairs)
                    pairs.append(UInt8(ascii: "\""))
                }
                switch value {
                case .number(let number):
                    appendLine(name, suffix: "", pairs, extra: nil, value: format(number), to: &out)
                case .histogram(let counts, let sum, let count):
                    var cumulative: UInt64 = 0
                    for (index, bound) in bounds.enumerated() {
                        cumulative += counts[index]
                        appendLine(name, suffix: "_bucket", pairs, extra: bound, value: String(cumulative), to: &out)
                    }
                    appendLine(name, suffix: "_sum", pairs, extra: nil, value: format(sum), to: &out)
                    appendLine(name, suffix: "_count", pairs, extra: nil, value: String(count), to: &out)
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `name_suffix{pairs,extra} value` and a newline; no braces when there are no labels at all.
    private static func appendLine(_ name: [UInt8], suffix: StaticString, _ pairs: [UInt8], extra: [UInt8]?,
                                   value: String, to out: inout [UInt8]) {
        out += name
        suffix.withUTF8Buffer { out += $0 }
        if !pairs.isEmpty || extra != nil {
            out.append(UInt8(ascii: "{"))
            out += pairs
            if let extra {
                if !pairs.isEmpty { out.append(UInt8(ascii: ",")) }
                out += extra
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: " "))
        out += value.utf8
        out.append(UInt8(ascii: "\n"))
    }

    static func format(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Appends `value` escaped for a label value (backslash, double quote, newline) or for help text (backslash,
    /// newline). Text with nothing to escape, nearly all of it, is copied in one piece.
    private static func appendEscaped(_ value: String, label: Bool, to out: inout [UInt8]) {
        let bytes = value.utf8
        guard bytes.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\n") || (label && $0 == UInt8(ascii: "\"")) })
        else {
            out += bytes
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): out += "\\\\".utf8
            case UInt8(ascii: "\n"): out += "\\n".utf8
            case UInt8(ascii: "\"") where label: out += "\\\"".utf8
            default: out.append(byte)
            }
        }
    }
}
