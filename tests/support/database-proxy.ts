import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net'

/**
 * A TCP proxy to a PostgreSQL server that counts round trips (each time the client writes again after the
 * server answered, on each connection) and statements (each Execute or simple Query the client sends) and does to its connections what a network and a managed database do:
 * - `killOpenConnections`: leaves them dead the way a database restart does (the client finds out only when it
 *   next writes);
 * - `pointAt` and `endConnections`: a failover (new connections reach another server; the old ones end);
 * - `partition`: a half-open partition (nothing passes either way, nobody is told);
 * - `refuse`: a connection reset (every connection ends, new ones are refused);
 * - `loseAnswersFrom`: a reset that comes after the server did the work and before its answers arrive.
 * `url` is the database's, through the proxy. `latencyMs` holds each write of the client that long before
 * passing it on: a database a network hop away, where each round trip costs at least that.
 * `dropStartupParameter` takes that parameter out of each connection's startup message, as a pooler told to
 * ignore it does.
 */
export async function databaseProxy(
  databaseUrl: string,
  { latencyMs = 0, dropStartupParameter }: { latencyMs?: number; dropStartupParameter?: string } = {},
) {
  let target = new URL(databaseUrl)
  const clients = new Set<Socket>()
  const stale = new WeakSet<Socket>()
  const counter = { roundTrips: 0, statements: 0 }
  /** While set, what would pass waits here, per socket, in order: released when the partition heals. */
  let held: Array<() => void> | undefined
  /** A partition to begin with the first message of a client that matches. */
  let partitionBefore: RegExp | undefined
  /** The connection of the first client message that matches loses its answers, then is reset once COMMIT is answered. */
  let loseAnswersBefore: RegExp | undefined
  let refusing = false
  const pass = (send: () => void) => (held ? held.push(send) : send())
  const server = createServer((client) => {
    if (refusing) return void client.destroy()
    const database = createConnection({ host: target.hostname, port: Number(target.port || 5432) })
    clients.add(client)
    let answered = true
    let started = false
    let lostAnswers: string | undefined
    const statementsIn = statementReader()
    client.on('data', (data: Buffer) => {
      if (stale.has(client)) return void client.destroy()
      const chunk = started || !dropStartupParameter ? data : withoutParameter(data, dropStartupParameter)
      started = true
      counter.statements += statementsIn(chunk)
      if (answered) counter.roundTrips++
      answered = false
      if (partitionBefore?.test(chunk.toString('latin1'))) {
        partitionBefore = undefined
        held ??= []
      }
      if (loseAnswersBefore?.test(chunk.toString('latin1'))) {
        loseAnswersBefore = undefined
        lostAnswers = ''
      }
      // Timers of one delay fire in the order set: the writes keep theirs.
      if (latencyMs > 0) setTimeout(() => pass(() => database.write(chunk)), latencyMs)
      else pass(() => database.write(chunk))
    })
    database.on('data', (chunk: Buffer) => {
      answered = true
      if (lostAnswers !== undefined) {
        // A CommandComplete tagged COMMIT: the server has committed; the client hears only that its connection closed.
        lostAnswers += chunk.toString('latin1')
        if (lostAnswers.includes('COMMIT\0')) client.destroy()
        return
      }
      pass(() => client.write(chunk))
    })
    for (const [a, b] of [
      [client, database],
      [database, client],
    ] as const) {
      // Across a partition, an end does not reach the other side either (the server keeps its session); once
      // it heals, the end follows what was sent before it, as TCP delivers it.
      a.on('close', () => pass(() => b.end()))
      a.on('error', () => pass(() => b.destroy()))
    }
    client.on('close', () => clients.delete(client))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const proxied = new URL(databaseUrl)
  proxied.hostname = '127.0.0.1'
  proxied.port = String((server.address() as AddressInfo).port)
  return {
    url: proxied.toString(),
    counter,
    /** Every connection open now fails at its next write, as one whose server went away while it was idle. */
    killOpenConnections() {
      for (const client of clients) stale.add(client)
    },
    /** New connections go to `url`'s server (host and port; the database name stays the client's). */
    pointAt(url: string) {
      target = new URL(url)
    },
    /** Every open connection ends now, as the server's side of each had closed it. */
    endConnections() {
      for (const client of clients) client.destroy()
    },
    /** Nothing passes either way until `heal`, and nobody is told: a half-open partition. */
    partition() {
      held ??= []
    },
    /** The same, from the first message a client sends that matches `pattern` (that message held too). */
    partitionAt(pattern: RegExp) {
      partitionBefore = pattern
    },
    /**
     * From the first message a client sends that matches `pattern`, that connection's answers are lost, and it is
     * reset once the server has answered its COMMIT: the work was saved, and the client cannot know it.
     */
    loseAnswersFrom(pattern: RegExp) {
      loseAnswersBefore = pattern
    },
    heal() {
      const waiting = held ?? []
      held = undefined
      for (const send of waiting) send()
    },
    /** Every open connection ends and new ones are refused, until called with false. */
    refuse(on = true) {
      refusing = on
      if (on) for (const client of clients) client.destroy()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type DatabaseProxy = Awaited<ReturnType<typeof databaseProxy>>

/**
 * Reads a connection's client messages as they come, chunk by chunk, and answers how many statements each chunk
 * ends: Execute ('E') and simple Query ('Q') messages. The first messages have no type byte (a startup message,
 * or a request for TLS or GSS encryption, which a startup message follows).
 */
function statementReader(): (chunk: Buffer) => number {
  let pending = Buffer.alloc(0)
  let untyped = true
  return (chunk) => {
    pending = Buffer.concat([pending, chunk])
    let statements = 0
    for (;;) {
      const header = untyped ? 4 : 5
      if (pending.length < header) break
      const length = untyped ? pending.readInt32BE(0) : 1 + pending.readInt32BE(1)
      if (pending.length < length) break
      if (untyped) untyped = [80877103, 80877104].includes(pending.readInt32BE(4))
      else if (pending[0] === 0x45 || pending[0] === 0x51) statements++
      pending = pending.subarray(length)
    }
    return statements
  }
}

/** A startup message (length, protocol, then name and value pairs, each ending in a zero byte) without `name`. */
function withoutParameter(message: Buffer, name: string): Buffer {
  const fields = message
    .subarray(8, message.length - 1)
    .toString('utf8')
    .split('\0')
  const kept: string[] = []
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] !== name) kept.push(fields[i]!, fields[i + 1]!)
  const body = Buffer.from(`${kept.map((field) => `${field}\0`).join('')}\0`)
  const header = Buffer.alloc(8)
  header.writeInt32BE(8 + body.length, 0)
  message.copy(header, 4, 4, 8)
  return Buffer.concat([header, body])
}
