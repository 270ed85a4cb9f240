import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PORTS } from '../../src/main/container'
import { chromiumAvailable } from '../support/browser'
import { startConsoleHarness, type ConsoleHarness } from '../support/console'

// docs/console.md "Administration": the development outbox, what would have been sent with no provider set.

describe.skipIf(!chromiumAvailable())('the development outbox in the staff console', () => {
  let c: ConsoleHarness
  beforeAll(async () => {
    c = await startConsoleHarness()
  })
  afterAll(() => c?.stop())

  test('an admin reads the texts that went to the log, newest first; staff have no such tab', async () => {
    const sms = c.api.server.container.get(PORTS.sms)
    const from = '+15035550100'
    await sms.send({ organizationId: c.api.world.organizationId, from, to: '+15035550177', body: 'Your box is ready\nat the back door' })
    const page = await c.open('/#/admin/outbox')
    await c.logIn(page, c.admin)
    await page.getByRole('heading', { name: 'Outbox (no provider)' }).waitFor()
    const row = page.getByRole('row', { name: /\+15035550177/ })
    await row.waitFor()
    expect(await row.textContent()).toContain('Your box is ready')
    expect(await row.getByRole('cell', { name: 'Text', exact: true }).count()).toBe(1)
    await c.expectAccessible(page)
    await c.done(page)

    const staff = await c.member('staff')
    const theirs = await c.open('/#/admin')
    await c.logIn(theirs, staff)
    await theirs.getByRole('heading', { name: 'Administration' }).waitFor()
    expect(await theirs.getByRole('link', { name: 'Outbox (no provider)' }).count()).toBe(0)
    await c.done(theirs)
  })
})
