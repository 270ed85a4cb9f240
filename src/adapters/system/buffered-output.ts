import { writeSync } from 'node:fs'

/** What gathers in memory before one write: some 60 access-log lines a system call instead of one each. */
const BUFFER_CHARS = 16_384
/** The longest a quiet service keeps a line unwritten. */
const FLUSH_EVERY_MS = 1000

/**
 * Lines kept in an array and written together, synchronously, once they reach 16 KB or `flush` is called.
 * Not pino's destination (sonic-boom): it measures the byte length of the whole pending buffer on every
 * line, which under load cost several times what the access line itself costs
 * (docs/performance/access-log.md "The access log").
 */
export class BufferedOutput {
  private lines: string[] = []
  private chars = 0

  constructor(private readonly fd: number) {}

  write(line: string): void {
    this.lines.push(line)
    this.chars += line.length
    if (this.chars >= BUFFER_CHARS) this.flush()
  }

  /** Writes what is pending, now: nothing is ever left in flight. */
  flush(): void {
    if (this.lines.length === 0) return
    const bytes = Buffer.from(this.lines.join(''))
    this.lines = []
    this.chars = 0
    writeAll(this.fd, bytes)
  }
}

/**
 * All of `bytes`, however the descriptor takes them: a pipe may take part, or none for a moment (EAGAIN,
 * when another process made it non-blocking). A log that cannot be written (a closed pipe) is dropped
 * rather than failing the request that wrote it.
 */
function writeAll(fd: number, bytes: Buffer): void {
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(fd, bytes, offset)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return
      Atomics.wait(pause, 0, 0, 1)
    }
  }
}

let stderr: BufferedOutput | undefined

/**
 * Standard error, buffered (`BufferedOutput`). Synchronous, so that nothing is ever in flight: the
 * process's exit (after SIGTERM's drain, or a crash the CLI reports) writes what is left, a quiet service
 * writes each second, and warnings and errors go out at once. Only SIGKILL can lose the last second's
 * lines. One for the process, as stderr is.
 */
export function bufferedStderr(): BufferedOutput {
  if (stderr) return stderr
  const output = new BufferedOutput(2)
  process.on('exit', () => output.flush())
  setInterval(() => output.flush(), FLUSH_EVERY_MS).unref()
  stderr = output
  return output
}
