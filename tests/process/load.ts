import { ServeProcess } from './cli-process'
import { adminOf, crowd, missing, rssKib, serveDatabase, Tally, type DatabaseKind } from './workload'

// The load run of tests/process/load.test.ts (10 s) and `npm run soak` (10 minutes): CLIENTS clients at once
// against the real `intake serve`, the caseworker mix of workload.ts with anonymous intake among it.

export const CLIENTS = 64

/**
 * Memory may grow this much from the end of the warm-up to the end of the run: the database's page cache and
 * the JavaScript heap fill up under load before they level off, and the garbage collector runs when it
 * likes. Generous on purpose, a safety check and no measure of size: the 10-second run catches only a gross
 * leak (around ten KiB per request), the 10-minute soak one of a few hundred bytes per request.
 */
export const RSS_ALLOWANCE = { factor: 1.5, plusKib: 64 * 1024 }

export interface LoadFigures {
  database: DatabaseKind
  seconds: number
  requests: number
  statuses: Record<string, number>
  /** Statuses other than 2xx and 429, and requests that got no answer. */
  unexpected: Record<string, number>
  acknowledgedWrites: number
  lostWrites: number
  rssAfterWarmUpKib: number
  rssAtEndKib: number
  p50Ms: number
  p99Ms: number
}

export async function runLoad(database: DatabaseKind, options: { seconds: number; warmUpSeconds: number }): Promise<LoadFigures> {
  const db = await serveDatabase(database)
  // Anonymous intake keeps its limit (20 per minute from one address): its 429s are part of the mix.
  const serve = await ServeProcess.start(db.env)
  try {
    const { api, ...target } = await adminOf(serve)
    const tally = new Tally()
    const deadline = Date.now() + (options.warmUpSeconds + options.seconds) * 1000
    const alive = () => serve.proc.exitCode === null && serve.proc.signalCode === null
    let rssAfterWarmUpKib = 0
    const warmUp = Bun.sleep(options.warmUpSeconds * 1000).then(() => {
      if (alive()) rssAfterWarmUpKib = rssKib(serve.pid)
    })
    await crowd(api, target, { clients: CLIENTS, tally, stop: () => Date.now() >= deadline || !alive(), publicIntake: true })
    await warmUp
    if (!alive()) throw new Error(`serve died under load (${serve.proc.signalCode ?? `exit ${serve.proc.exitCode}`})\n${serve.output()}`)
    const rssAtEndKib = rssKib(serve.pid)
    const lost = await missing(api, tally.acknowledged)
    return {
      database,
      seconds: options.warmUpSeconds + options.seconds,
      requests: tally.requests,
      statuses: tally.statuses,
      unexpected: tally.unexpected([429]),
      acknowledgedWrites: tally.acknowledged.needs.length + tally.acknowledged.constituents.length,
      lostWrites: lost.length,
      rssAfterWarmUpKib,
      rssAtEndKib,
      p50Ms: tally.percentileMs(50),
      p99Ms: tally.percentileMs(99),
    }
  } finally {
    await serve.stop('SIGTERM').catch(() => serve.kill('SIGKILL'))
    await db.drop()
  }
}

export function withinMemoryAllowance(figures: LoadFigures): boolean {
  return figures.rssAtEndKib <= figures.rssAfterWarmUpKib * RSS_ALLOWANCE.factor + RSS_ALLOWANCE.plusKib
}

/** One line of figures, as docs/reliability.md quotes them. */
export function describeLoad(f: LoadFigures): string {
  const statuses = Object.entries(f.statuses)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ')
  const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`
  return [
    `load on ${f.database}: ${CLIENTS} clients for ${f.seconds} s, ${f.requests} requests (${(f.requests / f.seconds).toFixed(0)}/s; ${statuses})`,
    `${f.acknowledgedWrites} acknowledged writes, ${f.lostWrites} lost; p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms`,
    `RSS ${mib(f.rssAfterWarmUpKib)} after warm-up, ${mib(f.rssAtEndKib)} at the end`,
  ].join('; ')
}
