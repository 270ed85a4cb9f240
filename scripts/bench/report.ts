// The benchmark's figures as Markdown tables, as docs/performance.md keeps them.
import type { ConsoleFigures } from './console'
import type { Measured } from './drive'

export interface Row {
  route: string
  service: Measured
  bare?: Measured
}

/** The row of the bare route's insert into a plain table: the second anchor of every write. */
export const PLAIN_INSERT = 'bare insert into a plain table'

/** The service's resident memory in MB: idle once started and logged into, and after the size's run. */
export interface Memory {
  idle: number
  afterRun: number
}

const WRITES = new Set(['create a need', 'public intake (duplicate check)', 'add a note'])

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–'
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * Per size of data: each route's req/s, p50, p99 and errors beside the bare route's (the ratio); routes
 * without a bare twin are compared with the bare read (reads) or the bare insert (writes). Then the staff
 * console's figures, and how each route's p50 grew from the first size to the last.
 */
export function printReport(
  title: string,
  results: Map<number, Row[]>,
  consoles: Map<number, ConsoleFigures>,
  memory: Map<number, Memory>,
) {
  const sizes = [...results.keys()]
  console.log(`\n## ${title}\n`)
  for (const [needs, rows] of results) {
    console.log(`### ${needs.toLocaleString()} needs\n`)
    console.log('| route | req/s | p50 ms | p99 ms | errors | bare req/s | ratio | ratio to a plain insert |')
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
    const bareRead = rows.find((r) => r.route === 'read one need')?.bare
    const bareWrite = rows.find((r) => r.route === 'create a need')?.bare
    const plain = rows.find((r) => r.route === PLAIN_INSERT)?.service
    for (const row of rows) {
      if (row.route === PLAIN_INSERT) continue
      const anchor =
        row.bare ??
        (row.route.startsWith('list') || row.route.includes('search') || row.route.includes('report')
          ? bareRead
          : row.route === 'login'
            ? undefined
            : bareWrite)
      console.log(
        `| ${row.route} | ${fmt(row.service.requests)} | ${fmt(row.service.p50, 2)} | ${fmt(row.service.p99, 2)} | ${row.service.errors} | ${anchor ? fmt(anchor.requests) : ''} | ${anchor ? fmt(row.service.requests / anchor.requests, 2) : ''} | ${plain && WRITES.has(row.route) ? fmt(row.service.requests / plain.requests, 2) : ''} |`,
      )
    }
    if (plain) console.log(`\n${PLAIN_INSERT} (the bare route): ${fmt(plain.requests)} req/s, p50 ${fmt(plain.p50, 2)} ms.`)
    const rss = memory.get(needs)
    if (rss)
      console.log(
        `The service's resident memory: ${fmt(rss.idle)} MB idle after start (target < 100), ${fmt(rss.afterRun)} MB after the run.`,
      )
    console.log()
  }
  if (consoles.size === 0) console.log('(The staff console is not measured: no Chromium; set CHROMIUM_PATH.)\n')
  else {
    console.log('### The staff console (first load ≤ 150 KB gzipped; inbox painted ≤ 300 ms after login)\n')
    console.log(
      '| needs | first load, gzipped KB | painted after the login answer: median ms | max ms | after pressing "Log in": median ms | max ms |',
    )
    console.log('|---:|---:|---:|---:|---:|---:|')
    for (const [needs, c] of consoles) {
      console.log(
        `| ${needs.toLocaleString()} | ${fmt(c.firstLoadGzipBytes / 1024, 1)} | ${fmt(median(c.fromLoginMs))} | ${fmt(Math.max(...c.fromLoginMs))} | ${fmt(median(c.fromSubmitMs))} | ${fmt(Math.max(...c.fromSubmitMs))} |`,
      )
    }
    console.log()
  }
  if (sizes.length > 1) {
    const [small, large] = [results.get(sizes[0]!)!, results.get(sizes.at(-1)!)!]
    console.log(`### p50 growth from ${sizes[0]!.toLocaleString()} to ${sizes.at(-1)!.toLocaleString()} needs (target ≤ 1.5×)\n`)
    console.log('| route | p50 growth |\n|---|---:|')
    for (const row of large) {
      const before = small.find((r) => r.route === row.route)!
      console.log(`| ${row.route} | ${fmt(row.service.p50 / before.service.p50, 2)}× |`)
    }
  }
}
