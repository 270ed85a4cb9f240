// A standalone reproduction, for the `postgres` client's maintainers, of a crash this service met: a
// transaction (or reserved connection) whose connection the server closes goes on writing to it, and the
// client throws `TypeError: null is not an object (evaluating 'socket.write')` from a timer, where no caller
// can catch it: the process dies. A PostgreSQL restart under load does it to every open transaction.
//
//   bun scripts/postgres-closed-socket-repro.ts postgres://postgres@127.0.0.1:5432/postgres
//
// Unpatched, the process dies before its last line; with patches/postgres+3.4.9.patch it prints "alive".
import postgres from 'postgres'

const url = process.argv[2] ?? process.env.DATABASE_URL
if (!url) throw new Error('usage: bun scripts/postgres-closed-socket-repro.ts <postgres url>')
const sql = postgres(url, { max: 2, onnotice: () => {} })
const killer = postgres(url, { max: 1 })

// 1. A transaction whose backend goes away: the failed statement rejects, then `begin` sends ROLLBACK on the
//    closed connection.
const failure = await sql
  .begin(async (tx) => {
    const [row] = await tx`SELECT pg_backend_pid() AS pid`
    await killer`SELECT pg_terminate_backend(${row!.pid})`
    await Bun.sleep(100) // the server's close has arrived: the connection has no socket any more
    await tx`SELECT 1`
  })
  .then(
    () => 'committed',
    (error: { code?: string }) => `rejected (${error.code})`,
  )
console.log(`transaction on a terminated backend: ${failure}`)

// 2. A reserved connection whose backend goes away: the second statement on it.
const reserved = await sql.reserve()
const [row] = await reserved`SELECT pg_backend_pid() AS pid`
await killer`SELECT pg_terminate_backend(${row!.pid})`
await Bun.sleep(100)
for (const attempt of [1, 2]) {
  const outcome = await reserved`SELECT 1`.then(
    () => 'answered',
    (error: { code?: string }) => `rejected (${error.code})`,
  )
  console.log(`reserved connection, statement ${attempt} after the backend ended: ${outcome}`)
}
reserved.release()

// 3. The pool still serves.
const [answer] = await sql`SELECT 1 AS ok`
console.log(`the pool answers ${answer?.ok} afterwards`)
await Promise.all([sql.end({ timeout: 1 }), killer.end({ timeout: 1 })])
await Bun.sleep(100)
console.log('alive')
