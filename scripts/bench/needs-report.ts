// The needs report's figures in process (docs/performance/bounds.md "Needs report"): on a SQLite file the
// benchmark seeded (bench-data/sqlite-*.sqlite, or `seed` below), each organization's month and year as the
// benchmark asks them (October 2026, November 2025 to October 2026), read `--rounds` times through the
// repository; prints the median and 99th percentile in ms, and the kept rows each part reads.
//
//   bun scripts/bench/needs-report.ts --database bench-data/sqlite-v3-100000-1.sqlite [--rounds 200]
import { Database } from 'bun:sqlite'
import { parseArgs } from 'node:util'
import { SqliteDatabase } from '../../src/adapters/persistence/sqlite/sqlite-database'
import type { ReportPeriod } from '../../src/domain/reports/needs-report'

const { values } = parseArgs({ options: { database: { type: 'string' }, rounds: { type: 'string', default: '200' } } })
if (!values.database) throw new Error('--database names a seeded SQLite file')
const PERIODS: Record<string, ReportPeriod> = {
  month: { from: '2026-10-01', to: '2026-10-31' },
  year: { from: '2025-11-01', to: '2026-10-31' },
}
const NOW = new Date('2026-11-04T12:00:00.000Z')

const persistence = new SqliteDatabase(values.database)
await persistence.migrate()
const raw = new Database(values.database, { readonly: true })
const organizations = raw.query<{ id: string }, []>('SELECT id FROM organizations ORDER BY id').all()
const rows = (sql: string, ...params: string[]) => raw.query<{ n: number }, string[]>(sql).get(...params)?.n ?? 0
for (const [name, period] of Object.entries(PERIODS)) {
  const times: number[] = []
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const { id } of organizations) {
      const started = Bun.nanoseconds()
      await persistence.repositories.needReports.figures(id, period, NOW)
      times.push((Bun.nanoseconds() - started) / 1e6)
    }
  }
  times.sort((a, b) => a - b)
  const [{ id }] = organizations as [{ id: string }]
  const kept = {
    days: rows('SELECT count(*) n FROM need_days WHERE organization_id = ? AND day BETWEEN ? AND ?', id, period.from, period.to),
    resolveHours: rows(
      'SELECT count(*) n FROM need_resolve_hours WHERE organization_id = ? AND day BETWEEN ? AND ?',
      id,
      period.from,
      period.to,
    ),
    dueWeeks: rows('SELECT count(*) n FROM need_due_weeks WHERE organization_id = ?', id),
  }
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!.toFixed(2)
  console.log(`${name}: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; one organization's kept rows in the period: ${JSON.stringify(kept)}`)
}
raw.close()
await persistence.close()
