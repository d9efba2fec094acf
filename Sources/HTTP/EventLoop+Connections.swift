import CLinux
import Glibc
import Synchronization

extension EventLoop {
    func connectionEvent(_ connection: Connection, events: UInt32) {
        // An event while "handling": the handler's thread answered and the client sent its next request, or the
        // client sent (or closed) before the answer was out.
        if connection.phase == .handling {
            switch connection.handoff.collect(watching: events & EPOLLIN.rawValue != 0) {
            case .answered:
                adoptDirectAnswer(connection)
            case .stillWriting:
                // The writer posts `.answered` when done; until then a level-triggered EPOLLIN would repeat.
                connection.disarmedDuringAnswer = true
                setInterest(connection, 0)
                if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) == 0 { return }
            case .none:
                // The client sent while its request is handled (pipelined bytes, or its close). A granted
                // descriptor is still armed, so level-triggered readiness would repeat: the loop takes the right
                // back, and the answer comes through its queue, after which it reads again.
                switch connection.handoff.revoke() {
                case .answered: adoptDirectAnswer(connection)
                case .withdrawn, .notGranted: setInterest(connection, 0)
                }
            }
        }
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && events & EPOLLIN.rawValue == 0 {
            closeConnection(connection)
            return
        }
        if events & EPOLLOUT.rawValue != 0 {
            flush(connection)
        }
        if events & EPOLLIN.rawValue != 0, connections[connection.fd] === connection {
            switch connection.phase {
            case .reading: readRequestBytes(connection)
            case .lingering: discardInput(connection)
            case .handling, .responding: break
            }
        }
    }

    /// One read per readiness event (level-triggered), then as much parsing as the bytes allow.
    private func readRequestBytes(_ connection: Connection) {
        let count = readBuffer.withUnsafeMutableBytes { read(connection.fd, $0.baseAddress, $0.count) }
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
            closeConnection(connection)
            return
        }
        guard count > 0 else { return }
        connection.input.append(contentsOf: readBuffer[0..<count])
        context.recordBuffered(connection.bufferedBytes)
        processInput(connection)
    }

    /// Parses buffered input; dispatches a complete request, answers a failure, or waits for more bytes.
    func processInput(_ connection: Connection) {
        guard connection.phase == .reading, !connection.hasPendingOutput else { return }
        let now = MonotonicClock.nowMilliseconds()
        let result = HTTPRequestParser.parse(connection.unconsumedInput, state: &connection.parser,
                                             limits: context.limits, peer: connection.remoteAddress)
        switch result {
        case .needMore:
            connection.releaseParsedInput()
            if connection.parser.hasStartedRequest {
                if connection.requestStartedAt == nil { connection.requestStartedAt = now }
            } else if connection.servedRequests > 0 {
                // Between requests on a keep-alive connection: the idle timeout applies, not the deadline.
                connection.requestStartedAt = nil
            }
            if connection.parser.expectsContinue {
                connection.parser.acknowledgeContinue()
                connection.output.append(contentsOf: ResponseWriter.continueResponse)
                flush(connection)
            } else {
                setInterest(connection, EPOLLIN.rawValue)
            }
        case .request(let request, let consumed):
            connection.inputStart += consumed
            connection.compactInput()
            connection.requestStartedAt = nil
            dispatch(request, on: connection)
        case .failure(let status, let reason):
            sendErrorAndClose(connection, status: status, reason: reason)
        }
    }

    /// Hands the request to a task on the global concurrent executor; the loop thread moves on at once.
    ///
    /// When nothing but reading can follow the response (keep-alive, no pipelined bytes waiting, not draining),
    /// the handler's thread may write it itself (`ResponseHandoff`); otherwise, or when that thread cannot write
    /// it all at once, the response comes back through the loop's queue.
    private func dispatch(_ parsed: ParsedRequest, on connection: Connection) {
        connection.phase = .handling
        let isHead = parsed.method == "HEAD"
        let isHTTP10 = parsed.version == "HTTP/1.0"
        connection.pendingIsHead = isHead
        connection.pendingKeepAlive = parsed.keepAlive
        connection.pendingIsHTTP10 = isHTTP10
        let request = HTTPRequest(method: parsed.method, target: parsed.target, version: parsed.version,
                                  headers: parsed.headers, body: parsed.body,
                                  remoteAddress: connection.remoteAddress)
        let mayAnswerDirectly = parsed.keepAlive && !isDraining && connection.unconsumedInput.isEmpty
        let handoff = connection.handoff
        // Granted, the descriptor stays armed for reading (see `ResponseHandoff`); otherwise input waits.
        if mayAnswerDirectly {
            setInterest(connection, EPOLLIN.rawValue)
            handoff.grant()
        } else {
            setInterest(connection, 0)
        }
        let context = context
        let queue = completions
        let id = connection.id
        Task.detached {
            let response = await context.handler(request)
            if mayAnswerDirectly && !ResponseWriter.requestsClose(response) {
                let attempt = handoff.answer {
                    ResponseWriter.serialize(response, isHeadRequest: isHead, keepAlive: true,
                                             http10KeepAlive: isHTTP10, date: context.dates.current())
                }
                switch attempt {
                case .answered:
                    context.directAnswers.add(1, ordering: .relaxed)
                    return
                case .answeredWhileWatched:
                    context.directAnswers.add(1, ordering: .relaxed)
                    queue.post(.answered(fd: handoff.fd, connectionID: id))
                    return
                case .partlySent(let bytes, let sent):
                    queue.post(.rest(fd: handoff.fd, connectionID: id, bytes: bytes, sent: sent))
                    return
                case .loopWrites:
                    break
                }
            }
            queue.post(.response(fd: handoff.fd, connectionID: id, response))
        }
    }

    func respond(_ connection: Connection, with response: HTTPResponse) {
        connection.handoff.reset()
        let keepAlive = connection.pendingKeepAlive && !isDraining && !ResponseWriter.requestsClose(response)
        let bytes = ResponseWriter.serialize(response, isHeadRequest: connection.pendingIsHead, keepAlive: keepAlive,
                                             http10KeepAlive: connection.pendingIsHTTP10, date: dates.current())
        write(bytes, alreadySent: 0, keepAlive: keepAlive, on: connection)
    }

    /// Sends a serialized response of which `alreadySent` bytes are out. Nothing else is pending while a
    /// request is handled (`processInput` dispatches only with the output drained).
    func write(_ bytes: [UInt8], alreadySent: Int, keepAlive: Bool, on connection: Connection) {
        connection.disarmedDuringAnswer = false
        connection.servedRequests += 1
        connection.phase = .responding
        connection.closeAfterWrite = !keepAlive
        connection.output = bytes
        connection.outputSent = alreadySent
        connection.closeDeadline = MonotonicClock.nowMilliseconds() + context.idleTimeout
        flush(connection)
    }

    /// The handler's thread wrote the whole response, with the descriptor still armed for reading (see
    /// `ResponseHandoff`): what `write` and `flush` would have recorded, then on to the next request.
    func adoptDirectAnswer(_ connection: Connection) {
        connection.servedRequests += 1
        if connection.disarmedDuringAnswer {
            connection.disarmedDuringAnswer = false
            setInterest(connection, EPOLLIN.rawValue)
        }
        connection.phase = .reading
        connection.closeDeadline = nil
        connection.idleSince = MonotonicClock.nowMilliseconds()
        processInput(connection)
    }

    func sendErrorAndClose(_ connection: Connection, status: Int, reason: String) {
        connection.phase = .responding
        connection.closeAfterWrite = true
        connection.output.append(contentsOf: ResponseWriter.errorResponse(
            context.configuration.refusalResponse(status, reason), date: dates.current()))
        connection.closeDeadline = MonotonicClock.nowMilliseconds() + context.lingerTimeout
        flush(connection)
    }

    /// Writes pending output; on EAGAIN waits for EPOLLOUT with reading paused (backpressure).
    func flush(_ connection: Connection) {
        while connection.hasPendingOutput {
            let sent = connection.output.withUnsafeBytes { bytes in
                send(connection.fd, bytes.baseAddress! + connection.outputSent,
                     bytes.count - connection.outputSent, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    setInterest(connection, EPOLLOUT.rawValue)
                    return
                }
                closeConnection(connection)
                return
            }
            connection.outputSent += sent
            if connection.phase == .responding {
                connection.closeDeadline = MonotonicClock.nowMilliseconds() + context.idleTimeout
            }
        }
        connection.output.removeAll(keepingCapacity: true)
        connection.outputSent = 0
        outputDidDrain(connection)
    }

    private func outputDidDrain(_ connection: Connection) {
        if connection.closeAfterWrite {
            startLingering(connection)
        } else if connection.phase == .responding {
            connection.phase = .reading
            connection.closeDeadline = nil
            connection.idleSince = MonotonicClock.nowMilliseconds()
            setInterest(connection, EPOLLIN.rawValue)
            processInput(connection)
        } else if connection.phase == .reading {
            setInterest(connection, EPOLLIN.rawValue)
        }
    }

    /// Shuts the write side and reads until the peer closes, so unread request bytes do not turn the
    /// close into a reset that could destroy the response before the client reads it.
    private func startLingering(_ connection: Connection) {
        connection.phase = .lingering
        connection.closeDeadline = MonotonicClock.nowMilliseconds() + context.lingerTimeout
        shutdown(connection.fd, Int32(SHUT_WR))
        setInterest(connection, EPOLLIN.rawValue)
    }

    private func discardInput(_ connection: Connection) {
        let count = readBuffer.withUnsafeMutableBytes { read(connection.fd, $0.baseAddress, $0.count) }
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
            closeConnection(connection)
        }
    }
}
