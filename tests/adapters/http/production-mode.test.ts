import { expect, test } from 'bun:test'
import { join } from 'node:path'

const root = join(import.meta.dir, '../../..')

// Elysia decides once, when first loaded, whether it runs in development mode, where validation errors carry
// the whole body (a cost that grows with the square of its nesting). The service must never run that way.
test.each(['development', 'test', ''])('the HTTP app runs Elysia in production mode when NODE_ENV is %p', async (nodeEnv) => {
  const script =
    "import { createHttpApp } from './src/adapters/http/app'; import { isProduction } from 'elysia/error'; console.log(typeof createHttpApp, isProduction)"
  const child = Bun.spawn([process.execPath, '-e', script], {
    cwd: root,
    env: { ...process.env, NODE_ENV: nodeEnv },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  expect(await new Response(child.stdout).text()).toBe('function true\n')
  expect(await child.exited).toBe(0)
})
