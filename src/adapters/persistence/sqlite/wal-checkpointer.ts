/**
 * Checkpoints a SQLite file's write-ahead log on a thread of its own. SQLite's automatic checkpoint runs inside
 * the COMMIT that takes the log past 1,000 pages, on the event loop: copying those pages into the file and
 * syncing it stalled every request for 20 to 50 ms every few dozen writes. The service's writer turns it off
 * (`PRAGMA wal_autocheckpoint = 0`) and this worker, every `intervalMs`, copies what the log holds with a
 * PASSIVE checkpoint, which never waits for readers or the writer.
 *
 * A log starts over only when a write begins with all of it copied, which under steady writes never happens
 * by itself. So once the log passes RESTART_FRAMES, all copied, the worker asks the writer for a gap; the
 * writer, between two transactions, holds its next one back (awaiting, so reads go on) while the worker runs
 * a RESTART checkpoint of the few pages written since; the next write starts the log over. Writes that come
 * faster than the copying (a busy machine starves the worker) would keep the log from ever being all copied:
 * past LONGEST_LOG_FRAMES the worker asks for the gap anyway, and copies the rest inside it. They talk through
 * shared memory: a writer busy with back-to-back transactions may not return to the event loop for messages.
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
/** The turn, in shared memory: the worker copies; it asked the writer for a gap; the writer holds its writes. */
const COPYING = 0
const GAP_ASKED = 1
const WRITES_HELD = 2
/** The longest the writer holds its writes (a reader of another process can keep a RESTART waiting). */
const LONGEST_GAP_MS = 500

const WORKER_SOURCE = `
import { Database } from 'bun:sqlite'
let db
let timer
self.onmessage = ({ data }) => {
  if (data.open) {
    const turn = data.turn
    db = new Database(data.open)
    db.exec('PRAGMA busy_timeout = ${LONGEST_GAP_MS / 2}')
    timer = setInterval(() => {
      try {
        const { log, checkpointed } = db.query('PRAGMA wal_checkpoint(PASSIVE)').get()
        if (log < ${RESTART_FRAMES} || (checkpointed !== log && log < ${LONGEST_LOG_FRAMES})) return
        Atomics.store(turn, 0, ${GAP_ASKED})
        const answered = Atomics.wait(turn, 0, ${GAP_ASKED}, 1000) !== 'timed-out'
        // No write in a second: the next one starts the log over by itself.
        if (!answered && Atomics.compareExchange(turn, 0, ${GAP_ASKED}, ${COPYING}) === ${GAP_ASKED}) return
        db.exec('PRAGMA wal_checkpoint(RESTART)')
      } catch (error) {
        self.postMessage({ error: String((error && error.message) || error) })
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

export interface WalCheckpointer {
  /** For the writer, between two transactions: when the worker asks for a gap, waits while it restarts the log. */
  giveGapIfAsked(): Promise<void>
  /** Stops checkpointing and closes the worker's connection. */
  stop(): Promise<void>
}

export function startWalCheckpointer(path: string, intervalMs: number, onError: (message: string) => void): WalCheckpointer {
  const turn = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' })))
  worker.unref()
  const closed = new Promise<void>((resolve) => {
    worker.onmessage = ({ data }: MessageEvent<{ error?: string; closed?: boolean }>) => {
      if (data.error) onError(data.error)
      if (data.closed) resolve()
    }
  })
  worker.onerror = (event) => onError(event.message)
  worker.postMessage({ open: path, intervalMs, turn })
  return {
    async giveGapIfAsked() {
      if (Atomics.compareExchange(turn, 0, GAP_ASKED, WRITES_HELD) !== GAP_ASKED) return
      Atomics.notify(turn, 0)
      const { value } = Atomics.waitAsync(turn, 0, WRITES_HELD, LONGEST_GAP_MS)
      if ((await value) === 'timed-out') onError(`the log restart took over ${LONGEST_GAP_MS} ms; writes go on`)
    },
    async stop() {
      worker.postMessage({ close: true })
      await Promise.race([closed, Bun.sleep(2_000)])
      worker.terminate()
    },
  }
}
