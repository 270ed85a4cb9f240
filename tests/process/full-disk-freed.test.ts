import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killAllServers, ServeProcess, waitFor } from './cli-process'
import { ADMIN, adminOf, allIds } from './workload'

// docs/faults.md "A full disk, a little room freed": the real `intake serve` on SQLite, alone on a 24 MiB
// tmpfs, writes until the disk is full; then 3 MiB are freed, less than copying its log into the database
// needs, then 8 MiB more. A read transaction (a backup's, say) held during the fill keeps the log from being
// copied, so that the log holds more new pages than the 3 MiB, as it does when a disk fills during a backup or
// while the log's file, long from an earlier cycle, is written over.

const MiB = 1024 * 1024
const disk = mkdtempSync(join(tmpdir(), 'intake-small-disk-'))
let mounted = false
afterAll(async () => {
  await killAllServers()
  if (mounted) Bun.spawnSync(['umount', disk])
  rmSync(disk, { recursive: true, force: true })
})

/** Mounting a tmpfs takes root (Linux). */
const canMount = process.platform === 'linux' && process.getuid?.() === 0 && Bun.which('mount') !== null

test.skipIf(!canMount)(
  'a full disk given back less room than the log needs: writes resume at once; with more room the log is copied and cut back; nothing acknowledged is lost',
  async () => {
    mounted = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', disk]).exitCode === 0
    expect(mounted).toBe(true)
    const file = join(disk, 'intake.sqlite')
    const env = {
      LOG_LEVEL: 'info',
      INTAKE_ADMIN_EMAIL: ADMIN.email,
      INTAKE_ADMIN_PASSWORD: ADMIN.password,
      DATABASE_URL: `sqlite:${file}`,
    }
    const serve = await ServeProcess.start(env)
    const { api, partnerId } = await adminOf(serve)
    // What the operator frees later: 3 MiB first, then 8 MiB.
    const little = join(disk, 'little')
    const more = join(disk, 'more')
    writeFileSync(little, Buffer.alloc(3 * MiB, 1))
    writeFileSync(more, Buffer.alloc(8 * MiB, 1))

    const acknowledged: string[] = []
    const statuses = new Set<number>()
    let n = 0
    const writeNeed = async () => {
      const text = `need ${++n} ${'x'.repeat(4900)}`
      const answer = await api.call<{ id: string }>('POST', '/api/needs', { partnerId, customFields: { a: text, b: text, c: text } })
      statuses.add(answer.status)
      if (answer.status === 201) acknowledged.push(answer.body.id)
      return answer.status
    }

    const reader = new Database(file, { readonly: true })
    reader.exec('BEGIN')
    reader.query('SELECT count(*) FROM needs').get()
    let full = false
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (!full) full = (await writeNeed()) === 503
      }),
    )
    // Until one need alone does not fit either (a group of eight failed first).
    expect(await waitFor(async () => (await writeNeed()) === 503, 10_000, 0)).toBe(true)
    reader.exec('COMMIT')
    const { page_count } = reader.query('PRAGMA page_count').get() as { page_count: number }
    const { page_size } = reader.query('PRAGMA page_size').get() as { page_size: number }
    reader.close()
    // What copying the log adds to the database file: more than will be freed.
    expect(page_count * page_size - statSync(file).size).toBeGreaterThan(3 * MiB)
    await Bun.sleep(200) // the checkpointer has its turns (every 20 ms)
    expect(await writeNeed()).toBe(503)

    rmSync(little)
    const freed = performance.now()
    expect(await waitFor(async () => (await writeNeed()) === 201, 10_000, 50)).toBe(true)
    const resumedMs = performance.now() - freed
    // And goes on once the checkpointer has had its turns: no write slipped in before a checkpoint took the room.
    await Bun.sleep(200)
    for (let i = 0; i < 4; i++) expect(await writeNeed()).toBe(201)
    expect(resumedMs).toBeLessThanOrEqual(2000)

    const walBytes = () => statSync(`${file}-wal`).size
    const walBefore = walBytes()
    rmSync(more)
    const freedMore = performance.now()
    // With writes going on (one every 50 ms, never a quiet second), the checkpoint goes through and the log's
    // file is cut back to nothing, giving its room back, rather than written over at its length.
    let writing = true
    const writes = (async () => {
      while (writing) {
        expect(await writeNeed()).toBe(201)
        await Bun.sleep(50)
      }
    })()
    const cutBack = await waitFor(() => walBytes() < MiB, 10_000, 10)
    const cutBackMs = performance.now() - freedMore
    writing = false
    await writes
    expect(cutBack).toBe(true)
    const { bavail, bsize } = statfsSync(disk)
    console.log(
      `writes resumed ${Math.round(resumedMs)} ms after 3 MiB were freed; the log (${(walBefore / MiB).toFixed(1)} MiB) was cut back ` +
        `${Math.round(cutBackMs)} ms after 8 MiB more, leaving ${((bavail * bsize) / MiB).toFixed(1)} MiB free`,
    )
    expect((await fetch(`${serve.url}/readyz`)).status).toBe(200)

    expect([...statuses].filter((status) => status !== 201 && status !== 503)).toEqual([])
    const stored = await allIds(api, '/api/needs')
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([])
    expect(await serve.stop('SIGTERM')).toBe(0)
    expect(serve.output()).toContain('WAL checkpoints succeed again')
    expect(serve.output()).not.toContain('unexpected error')
  },
  90_000,
)
