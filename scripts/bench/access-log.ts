// What the access log costs a read, as the server's own CPU
// (docs/performance/access-log.md "The access log"): two
// services on copies of one seeded SQLite file, one at the default LOG_LEVEL (a line a request, to a file)
// and one at `warn` (no line), read one need in turns under wrk; each turn's CPU time of the server (from
// /proc) over the requests it answered. Turns alternate because one run to the next moves a service's rate
// by as much as the log costs.
//
//   bun scripts/bench/access-log.ts [--rounds 6] [--duration 8] [--connections 32]
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { drive, type BenchRequest } from './drive'
import { BENCH_SECRETS, seed } from './seed'
import { benchData, logIn, startServer, type RunningServer } from './server'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
  },
})
const DATA = benchData()
const NEEDS = 10_000
const load = { duration: Number(values.duration), connections: Number(values.connections) }

/** Seconds of CPU (user and system) the process has used: /proc's clock ticks, 100 a second. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function seeded(): Promise<string> {
  const file = join(DATA, `access-log-${NEEDS}.sqlite`)
  if (!existsSync(file)) {
    await seed(`sqlite:${file}.partial`, { organizations: 1, needs: NEEDS, constituents: NEEDS * 0.3, seed: 1 }, (done, total) =>
      process.stderr.write(`\r  seeding: ${Math.floor((done / total) * 100)}%`),
    )
    process.stderr.write('\n')
    copyFileSync(`${file}.partial`, file)
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}.partial${suffix}`, { force: true })
  }
  return file
}

async function start(file: string, level: 'default' | 'warn'): Promise<RunningServer> {
  const working = join(DATA, `access-log-${level}.sqlite`)
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${working}${suffix}`, { force: true })
  copyFileSync(file, working)
  const env: Record<string, string> = { ...BENCH_SECRETS, DATABASE_URL: `sqlite:${working}`, AUTH_RATE_LIMIT: '1000000' }
  return startServer(['src/main/cli.ts', 'serve'], level === 'warn' ? { ...env, LOG_LEVEL: 'warn' } : env, {
    readyPath: '/readyz',
    log: join(DATA, `access-log-${level}.log`),
  })
}

const file = await seeded()
const services = { default: await start(file, 'default'), warn: await start(file, 'warn') }
try {
  const email = 'admin@bench-1.example.org'
  const tokens = { default: await logIn(services.default.base, email), warn: await logIn(services.warn.base, email) }
  const page = (await (
    await fetch(`${services.default.base}/api/needs?limit=100`, { headers: { authorization: `Bearer ${tokens.default}` } })
  ).json()) as Array<{ id: string }>
  const reads: BenchRequest[] = page.map((need) => ({ method: 'GET', path: `/api/needs/${need.id}` }))
  const perRead: Record<'default' | 'warn', number[]> = { default: [], warn: [] }
  // A first turn each, not counted: the services' caches and the JIT warm up.
  for (const level of ['default', 'warn'] as const) await drive(services[level].base, tokens[level], reads, load)
  for (let round = 0; round < Number(values.rounds); round++) {
    // Each round starts with the other service, so neither always runs on a warmer machine.
    const order = round % 2 === 0 ? (['default', 'warn'] as const) : (['warn', 'default'] as const)
    for (const level of order) {
      const before = cpuSeconds(services[level].pid)
      const measured = await drive(services[level].base, tokens[level], reads, load)
      const cpu = cpuSeconds(services[level].pid) - before
      perRead[level].push((cpu / (measured.requests * load.duration)) * 1e6)
      process.stderr.write(`  round ${round + 1}, ${level}: ${measured.requests.toFixed(0)}/s, ${perRead[level].at(-1)!.toFixed(1)} µs\n`)
    }
  }
  // Each round's difference, then their median: the machine's drift from one round to the next cancels.
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b)
    return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2
  }
  const without = median(perRead.warn)
  const cost = median(perRead.default.map((withLog, i) => withLog - perRead.warn[i]!))
  console.log(`| rounds | CPU per read at \`warn\` (median) | the log's cost per read (median of the rounds' differences) |`)
  console.log(`| -----: | -------------------------------: | ---------------------------------------------------------: |`)
  console.log(`| ${values.rounds} | ${without.toFixed(1)} µs | ${cost.toFixed(1)} µs (${((cost / without) * 100).toFixed(1)}%) |`)
} finally {
  await Promise.all([services.default.stop(), services.warn.stop()])
}
