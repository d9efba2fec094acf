import Foundation

/// Progress of a long import or export on standard error: on a terminal one line redrawn in place with a bar, the
/// rate and the time left; otherwise (a log, a pipe, CI) a plain line every few seconds, so logs stay readable.
///
/// Progress is measured in the unit that is known up front (bytes of the input file, or users in the store), and
/// the rate in users per second.
final class ProgressDisplay {
    private let total: Int
    private let verb: String
    private let terminal: Bool
    private let started = ContinuousClock.now
    private var lastShown = ContinuousClock.now
    private var shownOnce = false
    private let write: (String) -> Void

    init(total: Int, verb: String, terminal: Bool = isatty(STDERR_FILENO) == 1,
         write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.total = max(1, total)
        self.verb = verb
        self.terminal = terminal
        self.write = write
    }

    /// - Parameters: `done` in the progress unit, `users` handled so far.
    func update(done: Int, users: Int, force: Bool = false) {
        let now = ContinuousClock.now
        let interval: Duration = terminal ? .milliseconds(200) : .seconds(5)
        guard force || now - lastShown >= interval else { return }
        lastShown = now
        shownOnce = true
        let line = Self.line(verb: verb, done: done, total: total, users: users, elapsed: now - started, bar: terminal)
        write(terminal ? "\r\u{1B}[K" + line : line + "\n")
    }

    /// Ends the redrawn line so what follows starts on its own.
    func finish(done: Int, users: Int) {
        update(done: done, users: users, force: true)
        if terminal && shownOnce { write("\n") }
    }

    static func line(verb: String, done: Int, total: Int, users: Int, elapsed: Duration, bar: Bool) -> String {
        let fraction = min(1, Double(done) / Double(max(1, total)))
        let seconds = max(0.001, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        let rate = Double(users) / seconds
        let remaining = fraction > 0 ? seconds * (1 - fraction) / fraction : 0
        let percent = Int(fraction * 100)
        var text = "\(verb) \(users) users, \(percent)%, \(Int(rate)) users/s, ETA \(Int(remaining.rounded()))s"
        if bar {
            let width = 30
            let filled = Int(fraction * Double(width))
            text = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " + text
        }
        return text
    }
}
