import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Logger } from '../../../src/application/ports/logger'
import { SqliteDatabase } from '../../../src/adapters/persistence/sqlite/sqlite-database'
import { WAL_BOUND_BYTES } from '../../../src/adapters/persistence/sqlite/wal-checkpointer'
import { aNeed, anOrganization, aPartner } from '../../support/builders'
import { waitFor } from '../../process/cli-process'

// docs/self-hosting.md "Long reads": a read transaction of another process keeps the log from being copied;
// the service lets it grow rather than hold its writes, and cuts it back once the read ends.

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

async function database() {
  const dir = mkdtempSync(join(tmpdir(), 'intake-wal-'))
  const path = join(dir, 'intake.sqlite')
  const warnings: string[] = []
  const logger: Logger = { debug() {}, info() {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) }
  const db = new SqliteDatabase(path, { logger })
  cleanup.push(async () => {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await db.migrate()
  const organization = anOrganization()
  const partner = aPartner({ organizationId: organization.id, isDefault: true })
  await db.unitOfWork.run(async (r) => {
    await r.organizations.insert(organization)
    await r.partners.insert(partner)
  })
  let written = 0
  /** One need carrying 64 KiB, about 17 pages of log. */
  const write = () => {
    const need = aNeed({
      organizationId: organization.id,
      partnerId: partner.id,
      referenceNumber: `REQ-${++written}`,
      customFields: { notes: 'n'.repeat(65_536) },
    })
    return db.unitOfWork.run((r) => r.needs.insert(need))
  }
  const needs = async () => (await db.repositories.needs.list(organization.id, {}, { page: 1, limit: 1 })).total
  return { path, db, write, needs, warnings }
}

/** Another process's connection in the middle of a read (a backup, a sqlite3 shell): its snapshot stays until it ends. */
function holdARead(path: string): () => void {
  const reader = new Database(path, { readonly: true })
  reader.exec('BEGIN')
  reader.query('SELECT count(*) FROM needs').get()
  return () => {
    reader.exec('COMMIT')
    reader.close()
  }
}

/** Writes until the log file is past its bound (at most `most` writes); answers how many were made. */
async function writePastTheBound(db: SqliteDatabase, write: () => Promise<unknown>, most = 3_000): Promise<number> {
  let writes = 0
  while (db.walBytes() <= WAL_BOUND_BYTES && writes < most) {
    await write()
    writes++
  }
  return writes
}

describe('SQLite write-ahead log and a long read', () => {
  test('grows while another connection holds a read, and is cut back under its bound once the read ends, with no further write', async () => {
    const { path, db, write, needs, warnings } = await database()
    const endRead = holdARead(path)

    const writes = await writePastTheBound(db, write)
    expect(db.walBytes()).toBeGreaterThan(WAL_BOUND_BYTES)
    endRead()

    expect(await waitFor(() => db.walBytes() <= WAL_BOUND_BYTES, 15_000, 50)).toBe(true)
    expect(await needs()).toBe(writes)
    expect(warnings).toEqual([])
  }, 60_000)

  test('while writes go on after the read ended, the log comes back under its bound too', async () => {
    const { path, db, write, needs } = await database()
    const endRead = holdARead(path)
    let writes = await writePastTheBound(db, write)
    endRead()

    const underBound = await waitFor(
      async () => {
        await write()
        writes++
        return db.walBytes() <= WAL_BOUND_BYTES
      },
      15_000,
      0,
    )

    expect(underBound).toBe(true)
    expect(await needs()).toBe(writes)
  }, 60_000)
})
