import type { Logger } from '../../../application/ports/logger'

/**
 * Checkpoints a SQLite file's write-ahead log on a thread of its own. SQLite's automatic checkpoint runs inside
 * the COMMIT that takes the log past 1,000 pages, on the event loop: copying those pages into the file and
 * syncing it stalled every request for 20 to 50 ms every few dozen writes. The service's writer moves it far
 * out (`SAFETY_NET_FRAMES`, should this worker die) and this worker, every `intervalMs`, copies
 * what the log holds with a PASSIVE checkpoint, which never waits for readers or the writer.
 *
 * A log starts over only when a write begins with all of it copied, which under steady writes never happens
 * by itself. So once the log passes RESTART_FRAMES, all copied, the worker asks the writer for a gap; the
 * writer, between two transactions, holds its next one back (awaiting, so reads go on) while the worker runs
 * a RESTART checkpoint of the few pages written since; the next write starts the log over. Writes that come
 * faster than the copying (a busy machine starves the worker) would keep the log from ever being all copied:
 * past LONGEST_LOG_FRAMES the worker asks for the gap anyway, and copies the rest inside it. They talk through
 * shared memory: a writer busy with back-to-back transactions may not return to the event loop for messages.
 *
 * A read transaction of another process (a backup, a `sqlite3` shell) keeps every page written after it began
 * in the log, which then grows past any bound until the read ends; no checkpoint can change that. The worker
 * sees it when its copying makes no progress, and then asks for no gap (a RESTART would only wait for the
 * reader while writes are held: writes fell from 827/s to 45/s). Once the read ends the log is all copied,
 * and a file grown past WAL_BOUND_BYTES is cut back to nothing with a TRUNCATE checkpoint, at once, whether
 * writes go on or not: with none coming, the worker holds the writes itself.
 *
 * Durability is the same either way: a committed transaction is in the log, synced as `synchronous = NORMAL`
 * says, before and after its pages reach the file. The worker's code is a string (a blob URL), so the
 * compiled binary needs no file beside it.
 */

/**
 * 16 MiB of 4 KiB pages, four times SQLite's own automatic checkpoint: a restart holds writes back for the
 * two syncs it makes (20 to 50 ms on a cloud disk), so it should come seldom; an intake writes about 45 pages.
 */
const RESTART_FRAMES = 4096
/** 32 MiB: the log's bound however fast writes come; a longer gap (the copying left) is the price, paid seldom. */
const LONGEST_LOG_FRAMES = 2 * RESTART_FRAMES
/** The log file's bound in bytes (a frame is a page and its 24-byte header), with room for what comes during a gap. */
export const WAL_BOUND_BYTES = 40 * 1024 * 1024
/**
 * 1 GiB: the writer's own automatic checkpoint, should this worker die. Far out, because past it every COMMIT
 * tries a checkpoint on the event loop, and one after a long read would copy the whole log there.
 */
export const SAFETY_NET_FRAMES = 32 * LONGEST_LOG_FRAMES
/** The turn, in shared memory: the worker copies; it asked the writer for a gap; the writes are held. */
const COPYING = 0
const GAP_ASKED = 1
const WRITES_HELD = 2
/** The longest the writer holds its writes (a reader of another process can keep a RESTART waiting). */
const LONGEST_GAP_MS = 500
/** How long a read may keep the log from being copied before the worker says so. */
const LONG_READ_MS = 10_000

const WORKER_SOURCE = `
import { Database } from 'bun:sqlite'
import { statfsSync, statSync } from 'node:fs'
let db
let timer
self.onmessage = ({ data }) => {
  if (data.open) {
    const turn = data.turn
    const walFile = data.open + '-wal'
    db = new Database(data.open)
    db.exec('PRAGMA busy_timeout = ${LONGEST_GAP_MS / 2}')
    const pageSize = db.query('PRAGMA page_size').get().page_size
    // What the service's user may fill: root also has the blocks a file system keeps back for it.
    const freeBytes = () => {
      const { bavail, bfree, bsize } = statfsSync(data.open)
      return (process.getuid?.() === 0 ? bfree : bavail) * bsize
    }
    let copiedBefore = -1
    let stuckSince
    let longReadSaid = false
    let failures = 0
    let cutBackAfterFailure = false
    timer = setInterval(() => {
      try {
        // A checkpoint grows the database file by every page the log adds to it, and one that fails for want of
        // room keeps what it took: writes, which need far less, found the disk full again however much had been
        // freed short of that. So it waits for the room, and writes go on in the log meanwhile.
        const growth = db.query('PRAGMA page_count').get().page_count * pageSize - statSync(data.open).size
        const free = growth > 0 ? freeBytes() : 0
        if (growth > free) throw new Error('copying the log needs ' + growth + ' bytes more on the disk, which has ' + free + ' free')
        const { log, checkpointed } = db.query('PRAGMA wal_checkpoint(PASSIVE)').get()
        if (failures > 0) {
          self.postMessage({ recovered: failures })
          cutBackAfterFailure = true
        }
        failures = 0
        if (log < 0) return // another connection checkpoints at this moment (the writer's safety net): nothing learnt
        const copiedAll = checkpointed === log
        // Frames left that this checkpoint could not copy either: a read transaction holds them.
        const stuck = !copiedAll && checkpointed === copiedBefore
        copiedBefore = checkpointed
        stuckSince = stuck ? (stuckSince ?? Date.now()) : undefined
        const walBytes = statSync(walFile, { throwIfNoEntry: false })?.size ?? 0
        if (stuck && !longReadSaid && Date.now() - stuckSince > ${LONG_READ_MS}) {
          longReadSaid = true
          self.postMessage({ longRead: walBytes })
        }
        if (copiedAll && longReadSaid) {
          longReadSaid = false
          self.postMessage({ longReadEnded: walBytes })
        }
        // After failures the log's file goes back to nothing at the first gap: a full disk wants its room back.
        const cutBack = walBytes > ${WAL_BOUND_BYTES} || cutBackAfterFailure
        const gapWanted = copiedAll ? log >= ${RESTART_FRAMES} || cutBack : !stuck && (log >= ${LONGEST_LOG_FRAMES} || cutBackAfterFailure)
        if (!gapWanted) return
        Atomics.store(turn, 0, ${GAP_ASKED})
        const answered = Atomics.wait(turn, 0, ${GAP_ASKED}, 1000) !== 'timed-out'
        // No write in a second: the worker holds the writes itself (the writer waits at its next one) and
        // empties the log, which no write would start over.
        if (!answered) Atomics.compareExchange(turn, 0, ${GAP_ASKED}, ${WRITES_HELD})
        const truncate = cutBack || !answered
        const { busy } = db.query(truncate ? 'PRAGMA wal_checkpoint(TRUNCATE)' : 'PRAGMA wal_checkpoint(RESTART)').get()
        if (truncate && !busy) cutBackAfterFailure = false
      } catch (error) {
        // Said once per burst: a full disk fails every tick.
        if (failures++ === 0) self.postMessage({ error: String((error && error.message) || error) })
      } finally {
        if (Atomics.load(turn, 0) !== ${COPYING}) {
          Atomics.store(turn, 0, ${COPYING})
          Atomics.notify(turn, 0)
        }
      }
    }, data.intervalMs)
  } else if (data.close) {
    clearInterval(timer)
    db?.close()
    self.postMessage({ closed: true })
  }
}
`

interface WorkerReport {
  error?: string
  recovered?: number
  longRead?: number
  longReadEnded?: number
  closed?: boolean
}

export interface WalCheckpointer {
  /** For the writer, between two transactions: waits while the worker restarts the log, if it asked or holds the writes. */
  giveGapIfAsked(): Promise<void>
  /** Stops checkpointing and closes the worker's connection. */
  stop(): Promise<void>
}

export function startWalCheckpointer(path: string, intervalMs: number, logger: Logger): WalCheckpointer {
  const turn = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' })))
  worker.unref()
  const closed = new Promise<void>((resolve) => {
    worker.onmessage = ({ data }: MessageEvent<WorkerReport>) => {
      if (data.error) logger.error('WAL checkpoint failed; the next failures are not logged until one succeeds', { error: data.error })
      if (data.recovered) logger.info('WAL checkpoints succeed again', { failed: data.recovered })
      if (data.longRead !== undefined) {
        logger.warn('a long read transaction (a backup, a sqlite3 shell?) keeps the WAL from being copied: it grows until the read ends', {
          walBytes: data.longRead,
        })
      }
      if (data.longReadEnded !== undefined) logger.info('the long read ended: the WAL is copied again', { walBytes: data.longReadEnded })
      if (data.closed) resolve()
    }
  })
  worker.onerror = (event) => logger.error('WAL checkpoint failed', { error: event.message })
  worker.postMessage({ open: path, intervalMs, turn })
  return {
    async giveGapIfAsked() {
      if (Atomics.compareExchange(turn, 0, GAP_ASKED, WRITES_HELD) === GAP_ASKED) Atomics.notify(turn, 0)
      if (Atomics.load(turn, 0) !== WRITES_HELD) return
      const { value } = Atomics.waitAsync(turn, 0, WRITES_HELD, LONGEST_GAP_MS)
      if ((await value) === 'timed-out') logger.warn(`the log restart took over ${LONGEST_GAP_MS} ms; writes go on`)
    },
    async stop() {
      worker.postMessage({ close: true })
      await Promise.race([closed, Bun.sleep(2_000)])
      worker.terminate()
    },
  }
}
