// npm run soak: the load suite (tests/process/load.test.ts) for 10 minutes: 64 clients at once against the
// real `intake serve`, then the figures (requests by status, acknowledged and lost writes, p50 and p99,
// RSS after the warm-up and at the end) and whether the same properties held. Not part of npm test.
//
//   SOAK_SECONDS=600 SOAK_DATABASE=sqlite|postgres npm run soak
//
// PostgreSQL needs TEST_POSTGRES_URL (a cluster it may create a database in; scripts/pg-test-cluster.sh).
import { killAllServers } from '../tests/process/cli-process'
import { describeLoad, RSS_ALLOWANCE, runLoad, withinMemoryAllowance } from '../tests/process/load'

const seconds = Number(process.env.SOAK_SECONDS ?? 600)
const database = process.env.SOAK_DATABASE ?? 'sqlite'
if (database !== 'sqlite' && database !== 'postgres') throw new Error(`SOAK_DATABASE must be sqlite or postgres, not ${database}`)
if (database === 'postgres' && !process.env.TEST_POSTGRES_URL) throw new Error('SOAK_DATABASE=postgres needs TEST_POSTGRES_URL')
if (!Number.isFinite(seconds) || seconds < 10) throw new Error('SOAK_SECONDS must be a number of seconds, at least 10')

const warmUpSeconds = Math.min(30, Math.round(seconds / 5))
console.log(`soak on ${database}: ${seconds} s (${warmUpSeconds} s warm-up)…`)
try {
  const figures = await runLoad(database, { warmUpSeconds, seconds: seconds - warmUpSeconds })
  console.log(describeLoad(figures))
  const checks = {
    'only 2xx and 429': Object.keys(figures.unexpected).length === 0,
    'no lost write': figures.lostWrites === 0,
    [`RSS at the end within ${RSS_ALLOWANCE.factor}× after warm-up + ${RSS_ALLOWANCE.plusKib / 1024} MiB`]: withinMemoryAllowance(figures),
  }
  for (const [check, held] of Object.entries(checks)) console.log(`${held ? 'ok  ' : 'FAIL'} ${check}`)
  if (Object.keys(figures.unexpected).length) console.log(`unexpected: ${JSON.stringify(figures.unexpected)}`)
  process.exitCode = Object.values(checks).every(Boolean) ? 0 : 1
} finally {
  await killAllServers()
}
