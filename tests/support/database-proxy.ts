import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net'

/**
 * A TCP proxy to a PostgreSQL server that counts round trips (each time the client writes again after the
 * server answered, on each connection) and can leave its connections dead the way a database restart does:
 * the client finds out only when it next writes. `url` is the database's, through the proxy. `latencyMs`
 * holds each write of the client that long before passing it on: a database a network hop away, where each
 * round trip costs at least that.
 */
export async function databaseProxy(databaseUrl: string, { latencyMs = 0 }: { latencyMs?: number } = {}) {
  const target = new URL(databaseUrl)
  const clients = new Set<Socket>()
  const stale = new WeakSet<Socket>()
  const counter = { roundTrips: 0 }
  const server = createServer((client) => {
    const database = createConnection({ host: target.hostname, port: Number(target.port || 5432) })
    clients.add(client)
    let answered = true
    client.on('data', (chunk) => {
      if (stale.has(client)) return void client.destroy()
      if (answered) counter.roundTrips++
      answered = false
      // Timers of one delay fire in the order set: the writes keep theirs.
      if (latencyMs > 0) setTimeout(() => database.write(chunk), latencyMs)
      else database.write(chunk)
    })
    database.on('data', (chunk) => {
      answered = true
      client.write(chunk)
    })
    for (const [a, b] of [
      [client, database],
      [database, client],
    ] as const) {
      a.on('close', () => b.destroy())
      a.on('error', () => b.destroy())
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
