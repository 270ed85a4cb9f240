import type { Subprocess } from 'bun'
import { join } from 'node:path'

/** The CLI entry point, run with the same bun that runs the tests. */
const CLI = join(import.meta.dir, '..', '..', 'src', 'main', 'cli.ts')
const ROOT = join(import.meta.dir, '..', '..')

/** How intake is run: a command line and the folder it runs in. */
export interface Program {
  command: string[]
  cwd: string
}

/** From source, with the bun that runs the tests. */
export const FROM_SOURCE: Program = { command: [process.execPath, CLI], cwd: ROOT }

/** Only what the child needs from our environment, so no stray DATABASE_URL or PORT leaks in. */
function childEnv(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {}
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[name]) base[name] = process.env[name]!
  return { ...base, ...env }
}

/** Collects a child's stdout and stderr as they come, so the pipes never fill and failures can show them. */
function collect(stream: ReadableStream<Uint8Array> | undefined, into: string[]): Promise<void> {
  if (!stream) return Promise.resolve()
  const decoder = new TextDecoder()
  return (async () => {
    for await (const chunk of stream) into.push(decoder.decode(chunk, { stream: true }))
  })().catch(() => {})
}

/** Runs one CLI command to its end (bounded); answers its exit code and output. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 20_000,
  program = FROM_SOURCE,
): Promise<{ code: number; output: string }> {
  const out: string[] = []
  const proc = Bun.spawn([...program.command, ...args], { cwd: program.cwd, env: childEnv(env), stdout: 'pipe', stderr: 'pipe' })
  const reading = Promise.all([collect(proc.stdout, out), collect(proc.stderr, out)])
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs)
  const code = await proc.exited
  clearTimeout(timer)
  await reading
  return { code, output: out.join('') }
}

/** A running `intake serve` child. */
export class ServeProcess {
  private readonly out: string[] = []
  private readonly reading: Promise<unknown>
  url = ''

  private constructor(readonly proc: Subprocess<'ignore', 'pipe', 'pipe'>) {
    this.reading = Promise.all([collect(proc.stdout, this.out), collect(proc.stderr, this.out)])
  }

  /** Spawns `serve` (PORT=0 unless given) and waits until it answers GET /healthz. */
  static async start(env: Record<string, string>, readyWithinMs = 20_000, program = FROM_SOURCE): Promise<ServeProcess> {
    const proc = Bun.spawn([...program.command, 'serve'], {
      cwd: program.cwd,
      env: childEnv({ HOST: '127.0.0.1', PORT: '0', ...env }),
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const serve = new ServeProcess(proc)
    running.add(serve)
    proc.exited.then(() => running.delete(serve))
    try {
      await serve.waitUntilReady(readyWithinMs)
    } catch (error) {
      serve.kill('SIGKILL')
      throw error
    }
    return serve
  }

  get pid(): number {
    return this.proc.pid
  }

  get exited(): Promise<number> {
    return this.proc.exited
  }

  /** null while it runs. */
  get exitCode(): number | null {
    return this.proc.exitCode
  }

  output(): string {
    return this.out.join('')
  }

  kill(signal: 'SIGTERM' | 'SIGKILL' | 'SIGINT'): void {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill(signal)
  }

  /** Sends `signal` and waits (bounded) for the exit; answers the exit code, or throws with the output. */
  async stop(signal: 'SIGTERM' | 'SIGKILL', withinMs = 15_000): Promise<number> {
    this.kill(signal)
    return this.waitForExit(withinMs, signal)
  }

  /** Waits (bounded) for the exit after a signal already sent; SIGKILLs and throws if it does not come. */
  async waitForExit(withinMs: number, after = 'the signal'): Promise<number> {
    const code = await Promise.race([this.proc.exited, Bun.sleep(withinMs).then(() => undefined)])
    if (code === undefined) {
      this.kill('SIGKILL')
      await this.proc.exited
      throw new Error(`serve (pid ${this.pid}) did not exit within ${withinMs} ms of ${after}\n${this.output()}`)
    }
    await this.reading
    return code
  }

  private async waitUntilReady(withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs
    while (Date.now() < deadline) {
      if (this.proc.exitCode !== null) throw new Error(`serve exited with ${this.proc.exitCode} before it was ready\n${this.output()}`)
      const listening = /listening on (http:\/\/\S+?) /.exec(this.output())
      if (listening) {
        this.url = listening[1]!
        const healthy = await fetch(`${this.url}/healthz`)
          .then((r) => r.ok)
          .catch(() => false)
        if (healthy) return
      }
      await Bun.sleep(25)
    }
    throw new Error(`serve was not ready within ${withinMs} ms\n${this.output()}`)
  }
}

const running = new Set<ServeProcess>()

/** SIGKILLs every child still running (afterAll, also after a failure) and waits for them. */
export async function killAllServers(): Promise<void> {
  const left = [...running]
  for (const serve of left) serve.kill('SIGKILL')
  await Promise.all(left.map((s) => s.exited))
}

/** Polls `condition` every `everyMs` until it holds or `withinMs` passes; answers whether it held. */
export async function waitFor(condition: () => boolean | Promise<boolean>, withinMs: number, everyMs = 10): Promise<boolean> {
  const deadline = Date.now() + withinMs
  while (Date.now() < deadline) {
    if (await condition()) return true
    await Bun.sleep(everyMs)
  }
  return await condition()
}

/** A small JSON client for one running server. */
export class ApiClient {
  token = ''

  constructor(public baseUrl: string) {}

  async call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {}
    if (this.token) headers.authorization = `Bearer ${this.token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {}
    return { status: response.status, body: parsed as T }
  }

  /** Like call, but throws unless the answer has the expected status. */
  async expect<T = any>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, path, body)
    if (answer.status !== status)
      throw new Error(`${method} ${path}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }

  async login(email: string, password: string): Promise<void> {
    const tokens = await this.expect<{ accessToken: string }>(200, 'POST', '/api/auth/login', { email, password })
    this.token = tokens.accessToken
  }
}

export interface SmsInteraction {
  channel: string
  content: string
  deliveryStatus?: string
  providerMessageId?: string
}

/** The texts (sms interactions) of a need, oldest first: every page of them (docs/api/conventions.md "Lists"). */
export async function textsOf(api: ApiClient, needId: string): Promise<SmsInteraction[]> {
  const all: SmsInteraction[] = []
  for (let page = 1; ; page++) {
    const items = await api.expect<SmsInteraction[]>(200, 'GET', `/api/needs/${needId}/interactions?page=${page}&limit=100`)
    all.push(...items)
    if (items.length < 100) return all.filter((i) => i.channel === 'sms')
  }
}
