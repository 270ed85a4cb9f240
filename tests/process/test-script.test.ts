import { expect, test } from 'bun:test'
import { dirname, join } from 'node:path'

const root = join(import.meta.dir, '../..')

// scripts/test.sh (npm test) sets the per-test timeout on bun test's command line, the one place Bun reads it.
test('the test script gives each test more than Bun’s default 5 s: a test of 5.5 s passes', async () => {
  const child = Bun.spawn(['bash', 'scripts/test.sh', './tests/process/fixtures/past-the-default-timeout.ts'], {
    cwd: root,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  const output = out + err
  expect(output).toMatch(/^ *1 pass$/m)
  expect(output).toMatch(/^ *0 fail$/m)
  expect(code).toBe(0)
}, 30_000)
