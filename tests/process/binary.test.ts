import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import packageJson from '../../package.json' with { type: 'json' }
import { createTestDatabase, postgresAvailable } from '../support/postgres'
import { ApiClient, killAllServers, runCli, ServeProcess, waitFor, type Program } from './cli-process'

// `npm run build` gives one executable that runs with nothing beside it: no Bun, no Node, no
// node_modules, no source folder. Built once here (a few seconds), copied into empty folders, run with a
// clean environment (PATH names an empty folder, HOME a temporary one).

const ROOT = join(import.meta.dir, '..', '..')
const work = mkdtempSync(join(tmpdir(), 'intake-binary-'))
const binary = join(work, 'build', 'intake')
const emptyPath = join(work, 'empty-path')
const home = join(work, 'home')

beforeAll(() => {
  mkdirSync(emptyPath)
  mkdirSync(home)
  // The build script calls bun: the one running these tests.
  const build = Bun.spawnSync(['bash', join(ROOT, 'scripts', 'build.sh'), binary], {
    cwd: ROOT,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
  })
  if (build.exitCode !== 0) throw new Error(`npm run build failed:\n${build.stderr.toString()}${build.stdout.toString()}`)
}, 120_000) // a second or two on an idle machine; far more on a busy one, and a timeout kills the build

afterAll(async () => {
  await killAllServers()
  rmSync(work, { recursive: true, force: true })
})

/** The binary alone in a new folder, run from there. */
function installed(): Program {
  const dir = join(work, `run-${crypto.randomUUID().slice(0, 8)}`)
  mkdirSync(dir)
  copyFileSync(binary, join(dir, 'intake'))
  return { command: ['./intake'], cwd: dir }
}

const CLEAN_ENV = { PATH: emptyPath, HOME: home }

describe('the compiled binary (npm run build)', () => {
  test('is one file, and prints its version and commit', async () => {
    expect(readdirSync(dirname(binary))).toEqual(['intake'])
    const { code, output } = await runCli(['--version'], CLEAN_ENV, 10_000, installed())
    expect(code).toBe(0)
    expect(output).toMatch(new RegExp(`^intake ${packageJson.version.replace(/\./g, '\\.')} \\([0-9a-f]{7,}|unknown\\)`))
  })

  test('first start, login, a need, a backup while serving, SIGTERM; then restore and start again', async () => {
    const program = installed()
    const serve = await ServeProcess.start(CLEAN_ENV, 20_000, program)
    const password = /Admin password \(shown once\): (\S+)/.exec(serve.output())?.[1]
    expect(password).toBeDefined()
    expect(existsSync(join(program.cwd, 'data', 'intake.sqlite'))).toBe(true)

    const api = new ApiClient(serve.url)
    await api.login('admin@example.org', password!)
    const [partner] = await api.expect<Array<{ id: string }>>(200, 'GET', '/api/partners')
    const need = await api.expect<{ id: string; referenceNumber: string }>(201, 'POST', '/api/needs', { partnerId: partner!.id })

    const docs = await fetch(`${serve.url}/api/docs/assets/swagger-ui-bundle.js`)
    expect(docs.status).toBe(200)
    expect((await docs.arrayBuffer()).byteLength).toBe(Bun.file(join(ROOT, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js')).size)
    // The staff console is inside too: its page names its bundled script, which the binary serves.
    const consolePage = await (await fetch(`${serve.url}/`)).text()
    const script = /src="(\/console\/assets\/main-\w+\.js)"/.exec(consolePage)?.[1]
    expect(script).toBeDefined()
    const consoleScript = await fetch(`${serve.url}${script}`)
    expect(consoleScript.status).toBe(200)
    expect(await consoleScript.text()).toContain('Log in')

    const backup = await runCli(['backup', '--to', 'backup.sqlite'], CLEAN_ENV, 20_000, program)
    expect(backup).toMatchObject({ code: 0, output: expect.stringContaining('Backup written to backup.sqlite') })
    const copy = new Database(join(program.cwd, 'backup.sqlite'), { readonly: true })
    expect(copy.query('SELECT reference_number AS ref FROM needs WHERE id = ?').all(need.id)).toEqual([{ ref: need.referenceNumber }])
    copy.close()
    expect(await runCli(['backup', '--to', 'backup.sqlite'], CLEAN_ENV, 20_000, program)).toMatchObject({
      code: 1,
      output: expect.stringContaining('--force'),
    })
    expect(await runCli(['restore', '--from', 'backup.sqlite'], CLEAN_ENV, 20_000, program)).toMatchObject({
      code: 1,
      output: expect.stringContaining('in use'),
    })

    expect(await serve.stop('SIGTERM')).toBe(0)

    const restore = await runCli(['restore', '--from', 'backup.sqlite'], CLEAN_ENV, 20_000, program)
    expect(restore.code).toBe(0)
    expect(restore.output).toMatch(/kept at \S+intake\.sqlite\.replaced-\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{4}\.bak/)
    const again = await ServeProcess.start(CLEAN_ENV, 20_000, program)
    const restarted = new ApiClient(again.url)
    await restarted.login('admin@example.org', password!)
    expect(await restarted.expect(200, 'GET', `/api/needs/${need.id}`)).toMatchObject({ referenceNumber: need.referenceNumber })
    expect(await again.stop('SIGTERM')).toBe(0)
  }, 60_000)

  test('the operator commands and the worker run from it', async () => {
    const program = installed()
    const env = { ...CLEAN_ENV, DATABASE_URL: 'sqlite:./db/intake.sqlite' }
    const admin = { email: 'admin@binary.example.org', password: 'a long enough password 42' }
    expect(await runCli(['migrate'], env, 20_000, program)).toMatchObject({
      code: 0,
      output: expect.stringContaining('Migrations applied'),
    })
    const created = await runCli(
      ['org', 'create', '--name', 'Binary', '--slug', 'binary', '--admin-email', admin.email, '--admin-password', admin.password, '--json'],
      env,
      20_000,
      program,
    )
    expect(created.code).toBe(0)
    expect(JSON.parse(created.output)).toHaveProperty('organizationId')
    expect(
      await runCli(['member', 'set-password', '--email', admin.email, '--password', 'another long password 43'], env, 20_000, program),
    ).toMatchObject({ code: 0 })

    const worker = Bun.spawn([...program.command, 'worker'], {
      cwd: program.cwd,
      env: { ...env, LOG_LEVEL: 'info' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    let output = ''
    const reading = [worker.stdout, worker.stderr].map(async (stream) => {
      for await (const chunk of stream) output += new TextDecoder().decode(chunk)
    })
    try {
      expect(await waitFor(() => output.includes('outbox worker running'), 20_000, 25)).toBe(true)
      worker.kill('SIGTERM')
      expect(await worker.exited).toBe(0)
      await Promise.all(reading)
    } finally {
      if (worker.exitCode === null) worker.kill('SIGKILL')
    }
  }, 60_000)

  if (postgresAvailable()) {
    test('on PostgreSQL: migrates with the migrations it carries; backs up with pg_dump when on the PATH, says to use it when not', async () => {
      const database = await createTestDatabase()
      try {
        const program = installed()
        const env = { ...CLEAN_ENV, DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(40), DATA_ENCRYPTION_KEY: 'ab'.repeat(32) }
        expect(await runCli(['migrate'], env, 20_000, program)).toMatchObject({
          code: 0,
          output: expect.stringContaining('Migrations applied'),
        })

        expect(await runCli(['backup', '--to', 'pg.dump'], env, 20_000, program)).toMatchObject({
          code: 1,
          output: expect.stringContaining('pg_dump'),
        })
        const pgDump = Bun.which('pg_dump')
        if (!pgDump) return console.log('pg_dump is not installed: its half of this test is skipped')
        const withPgDump = { ...env, PATH: `${dirname(pgDump)}:/usr/bin:/bin` }
        expect(await runCli(['backup', '--to', 'pg.dump'], withPgDump, 30_000, program)).toMatchObject({
          code: 0,
          output: expect.stringContaining('Backup written to pg.dump'),
        })
        expect(await Bun.file(join(program.cwd, 'pg.dump')).text()).toStartWith('PGDMP') // pg_dump's custom format
        expect(await runCli(['backup', '--to', 'pg.dump'], withPgDump, 30_000, program)).toMatchObject({
          code: 1,
          output: expect.stringContaining('--force'),
        })
      } finally {
        await database.drop()
      }
    }, 60_000)
  }
})
