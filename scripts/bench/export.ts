// The exports' memory at scale
// (docs/performance/exports-import-memory.md "Exports"): seeds one organization with `--needs` needs
// (and 0.3 constituents per need) once, starts the real service (`intake serve`), downloads both CSV
// exports as fast as the client reads, and prints rows, size, time and the service's resident memory:
// idle before, and the highest of samples taken every 20 ms during each export.
//
//   bun scripts/bench/export.ts [--needs 1000000] [--rounds 1] [--data /tmp/intake-export-bench]
//
// With --rounds 2 or more the exports run again in the same process: a peak that does not climb from round
// to round is memory the service reuses, not memory it keeps.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { BENCH_SECRETS, seed } from './seed'
import { logIn, startServer } from './server'

const { values } = parseArgs({
  options: {
    needs: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '1' },
    data: { type: 'string', default: '/tmp/intake-export-bench' },
  },
})
const needs = Number(values.needs)
mkdirSync(values.data, { recursive: true })
const file = join(values.data, `export-${needs}.sqlite`)
if (!existsSync(file)) {
  await seed(`sqlite:${file}`, { organizations: 1, needs, constituents: Math.round(needs * 0.3), seed: 1 }, (done, total) =>
    process.stderr.write(`\r  seeding: ${Math.floor((done / total) * 100)}%`),
  )
  process.stderr.write('\n')
}

const service = await startServer(
  ['src/main/cli.ts', 'serve'],
  { ...BENCH_SECRETS, DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'warn' },
  {
    readyPath: '/readyz',
  },
)
const { base, rss } = service
try {
  const accessToken = await logIn(base, 'admin@bench-1.example.org')
  await Bun.sleep(1000)
  console.log(`${needs.toLocaleString()} needs; service idle: ${rss().toFixed(0)} MB RSS`)
  const paths = ['/api/needs/export?format=csv', '/api/constituents/export?format=csv']
  for (const path of Array.from({ length: Number(values.rounds) }, () => paths).flat()) {
    let peak = rss()
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20)
    const started = performance.now()
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${accessToken}` } })
    let bytes = 0
    let lines = 0
    for await (const chunk of response.body!) {
      bytes += chunk.byteLength
      for (const byte of chunk) if (byte === 10) lines++
    }
    clearInterval(sampler)
    const seconds = (performance.now() - started) / 1000
    console.log(
      `${path}: ${response.status}, ${(lines - 1).toLocaleString()} records, ${(bytes / 1e6).toFixed(0)} MB in ${seconds.toFixed(1)} s; service peak ${peak.toFixed(0)} MB RSS`,
    )
  }
} finally {
  await service.stop()
}
