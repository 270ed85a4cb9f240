// A server a benchmark drives, started as a user starts it (the service's `serve`, or the bare route), and
// the seeded admin's login.
import { chmodSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BENCH_PASSWORD } from './seed'

export const ROOT = join(import.meta.dir, '..', '..')

/** bench-data/, made readable by no one else: it holds seeded people and the services' logs (the service warns otherwise). */
export function benchData(): string {
  const folder = join(ROOT, 'bench-data')
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  chmodSync(folder, 0o700)
  return folder
}

export interface RunningServer {
  base: string
  pid: number
  /** Resident memory in MB; 0 once the process is gone. */
  rss(): number
  /** SIGTERM, then the exit; says so when the server had already ended by itself. */
  stop(): Promise<void>
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

/**
 * Starts `bun <args>` on a free port and waits until `readyPath` answers (any status under 500). Its log
 * (stderr) goes to `log`, a file, as `npm start 2> file` or a log collector would take it, or to ours.
 */
export async function startServer(
  args: string[],
  env: Record<string, string>,
  { readyPath, log }: { readyPath: string; log?: string },
): Promise<RunningServer> {
  const port = freePort()
  const base = `http://127.0.0.1:${port}`
  const child = Bun.spawn([process.execPath, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdout: 'ignore',
    stderr: log ? Bun.file(log) : 'inherit',
  })
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${base}${readyPath}`).then(
      (r) => r.status < 500,
      () => false,
    )
    if (up) break
    if (child.exitCode !== null || tries > 600) throw new Error(`${args.join(' ')} did not start`)
    await Bun.sleep(100)
  }
  return {
    base,
    pid: child.pid,
    rss() {
      try {
        return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
      } catch {
        return 0
      }
    },
    async stop() {
      if (child.exitCode !== null) console.error(`${args.join(' ')} ended by itself: exit ${child.exitCode}, signal ${child.signalCode}`)
      child.kill('SIGTERM')
      await child.exited
    },
  }
}

/** The access token of `email` (a seeded admin, password BENCH_PASSWORD). */
export async function logIn(base: string, email: string): Promise<string> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  })
  return ((await login.json()) as { accessToken: string }).accessToken
}
