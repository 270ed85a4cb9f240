import { describe, expect, test } from 'bun:test'
import { BURST_WINDOW_MS, BurstLog } from '../../../src/adapters/system/burst-log'
import type { Logger } from '../../../src/application/ports/logger'

// docs/observability.md "Logs": a failure repeated by every request is one line per burst, and the next
// burst's line says how many were not written.
function recording() {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = []
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, message, ...(fields ? { fields } : {}) })
  const logger: Logger = { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
  return { lines, logger }
}

describe('a burst of the same failure', () => {
  test('is one line, then one line per window that says how many were not written', () => {
    let now = 0
    const { lines, logger } = recording()
    const log = new BurstLog(logger, () => now)
    for (let i = 0; i < 1000; i++) log.warn('database unavailable', { kind: 'disk_full' })
    expect(lines).toEqual([{ level: 'warn', message: 'database unavailable', fields: { kind: 'disk_full' } }])

    now = BURST_WINDOW_MS
    log.warn('database unavailable', { kind: 'disk_full' })
    expect(lines[1]).toEqual({ level: 'warn', message: 'database unavailable', fields: { kind: 'disk_full', repeatsNotLogged: 999 } })
  })

  test('of another kind is a burst of its own', () => {
    const { lines, logger } = recording()
    const log = new BurstLog(logger, () => 0)
    log.warn('database unavailable', { kind: 'disk_full' })
    log.warn('database unavailable', { kind: 'busy' })
    log.warn('database unavailable', { kind: 'busy' })
    expect(lines.map((line) => [line.level, line.message, line.fields])).toEqual([
      ['warn', 'database unavailable', { kind: 'disk_full' }],
      ['warn', 'database unavailable', { kind: 'busy' }],
    ])
  })
})
