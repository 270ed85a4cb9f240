/**
 * Checkpoints a SQLite file's write-ahead log on a thread of its own. SQLite's automatic checkpoint runs inside
 * the COMMIT that takes the log past 1,000 pages, on the event loop: copying those pages into the file and
 * syncing it stalled every request for 20 to 50 ms every few dozen writes. The service's writer turns it off
 * (`PRAGMA wal_autocheckpoint = 0`) and this worker, every `intervalMs`, copies what the log holds with a
 * PASSIVE checkpoint, which never waits for readers or the writer.
 *
 * A log starts over only when a write begins with every page of it copied, which under steady writes never
 * happens by itself: the writer appends between the worker's checkpoints. So once the log passes
 * RESTART_FRAMES and the worker has copied all of it, the worker hands the turn to the writer through shared
 * memory (not a message: a writer busy with back-to-back transactions may not return to the event loop for a
 * while) and waits. The writer, between two transactions, checkpoints the few pages written since, and its
 * next write starts the log over; then it hands the turn back. Two checkpoints never run at once.
 *
 * Durability is the same either way: a committed transaction is in the log, synced as `synchronous = NORMAL`
 * says, before and after its pages reach the file. The worker's code is a string (a blob URL), so the
 * compiled binary needs no file beside it.
 */
/** As SQLite’s own automatic checkpoint: about 4 MiB of 4 KiB pages. */
const RESTART_FRAMES = 1000

const WORKER_SOURCE = `
import { Database } from 'bun:sqlite'
let db
let timer
let writersTurn
self.onmessage = ({ data }) => {
  if (data.open) {
    db = new Database(data.open)
    writersTurn = data.writersTurn
    db.exec('PRAGMA busy_timeout = 5000')
    timer = setInterval(() => {
      if (Atomics.load(writersTurn, 0) === 1) return
      try {
        const { log, checkpointed } = db.query('PRAGMA wal_checkpoint(PASSIVE)').get()
        if (log >= ${RESTART_FRAMES} && checkpointed === log) Atomics.store(writersTurn, 0, 1)
      } catch (error) {
        self.postMessage({ error: String(error && error.message || error) })
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
  /**
   * Called by the writer between transactions: when the log is long and the worker copied all of it,
   * runs `checkpointTail` (a PASSIVE checkpoint of what was written since), so the next write starts the log over.
   */
  restartLogIfDue(checkpointTail: () => void): void
  /** Stops checkpointing and closes the worker's connection. */
  stop(): Promise<void>
}

export function startWalCheckpointer(path: string, intervalMs: number, onError: (message: string) => void): WalCheckpointer {
  const writersTurn = new Int32Array(new SharedArrayBuffer(4))
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }))
  const worker = new Worker(url)
  worker.unref()
  const closed = new Promise<void>((resolve) => {
    worker.onmessage = ({ data }: MessageEvent<{ error?: string; closed?: boolean }>) => {
      if (data.error) onError(data.error)
      if (data.closed) resolve()
    }
  })
  worker.onerror = (event) => onError(event.message)
  worker.postMessage({ open: path, intervalMs, writersTurn })
  return {
    restartLogIfDue(checkpointTail) {
      if (Atomics.load(writersTurn, 0) !== 1) return
      checkpointTail()
      Atomics.store(writersTurn, 0, 0)
    },
    async stop() {
      worker.postMessage({ close: true })
      await Promise.race([closed, Bun.sleep(2_000)])
      worker.terminate()
    },
  }
}
