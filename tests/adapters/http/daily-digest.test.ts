import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PinoLogger } from '../../../src/adapters/system/pino-logger'
import { useCasesOf } from '../../../src/main/container'
import { startServer, type RunningServer } from '../../../src/main/server'
import { startTestServer, TEST_DATABASE, type TestServer } from '../../support/http'
import { cheapPasswords, type World } from '../../support/world'
import { deliverUntil, expectBadRequest, fallbackEmailsTo } from './helpers'

// docs/api/organization.md "Notifications": the daily digest over real HTTP and the real worker's use case, on SQLite (one
// instance: two processes do not share a SQLite file) and PostgreSQL (two instances on one database).
const BASE_URL = 'https://console.example.test'
const HOUR = 3_600_000
const DAY = 24 * HOUR
let api: TestServer
let second: RunningServer | undefined
beforeAll(async () => {
  api = await startTestServer({ PUBLIC_BASE_URL: BASE_URL })
  if (TEST_DATABASE === 'postgres')
    second = await startServer(api.config, {
      clock: api.world.clock,
      passwords: cheapPasswords(),
      // Its lines and mail beside the first one's: whichever instance sends a mail, the test reads it.
      logger: new PinoLogger('info', { write: (line: string) => void api.logs.push(line.trimEnd()) }),
      fallbackEmail: api.fallbackMail,
    })
})
afterAll(async () => {
  await second?.stop()
  await api.stop()
})

const instances = () => [api.server, ...(second ? [second] : [])]
/** An organization of its own (the instances' workers run digests too) and its admin's token. */
async function organization(): Promise<{ world: World; admin: string }> {
  const world = await api.world.otherOrganization()
  return { world, admin: await api.tokenFor(world, 'org_admin') }
}
const emailOf = async (token: string) => (await api.call('GET', '/api/profile', { token })).body.email as string
const digestsTo = (email: string) => fallbackEmailsTo(api, email).filter((m) => m.subject.startsWith('Your daily digest'))

describe('the digest settings', () => {
  test('PUT sets the hour, the time zone and the confirmations; GET answers them', async () => {
    const { admin } = await organization()
    const body = { digestHour: 18, timeZone: 'America/Los_Angeles', confirmRequests: true }
    expect(await api.call('PUT', '/api/organizations/settings', { token: admin, body })).toMatchObject({ status: 200, body })
    expect((await api.call('GET', '/api/organizations/settings', { token: admin })).body).toMatchObject(body)
  })

  test('digestTimeZone, the former name of timeZone, is still taken and answered with the same value', async () => {
    const { admin } = await organization()
    const answered = await api.call('PUT', '/api/organizations/settings', { token: admin, body: { digestTimeZone: 'Europe/Madrid' } })
    expect(answered).toMatchObject({ status: 200, body: { timeZone: 'Europe/Madrid', digestTimeZone: 'Europe/Madrid' } })
    const body = { timeZone: 'Asia/Tokyo', digestTimeZone: 'Asia/Tokyo' }
    expect((await api.call('PUT', '/api/organizations/settings', { token: admin, body: { timeZone: 'Asia/Tokyo' } })).body).toMatchObject(
      body,
    )
    expect((await api.call('GET', '/api/organizations/settings', { token: admin })).body).toMatchObject(body)
  })

  test.each([
    ['/timeZone', { timeZone: 'Nowhere/Special' }],
    ['/timeZone', { timeZone: '+02:00' }],
    ['/timeZone', { digestTimeZone: 'Nowhere/Special' }],
    ['/digestHour', { digestHour: 24 }],
    ['/digestHour', { digestHour: '8' }],
    ['/confirmRequests', { confirmRequests: 'yes' }],
  ])('%s: a bad value is 400 naming it', async (path, body) => {
    const { admin } = await organization()
    expectBadRequest(await api.call('PUT', '/api/organizations/settings', { token: admin, body }), path)
  })
})

describe(`one digest per member and day, with ${TEST_DATABASE === 'postgres' ? 'two instances' : 'one instance'} running it at once`, () => {
  test('each member with something to hear of is mailed once, again the next day, with nothing of the person', async () => {
    // Not due while the test sets up (the instances' own workers look every minute too): from the next 06:00
    // UTC (another day than any an instance could have looked at already), due at 12:00.
    const world = await api.world.otherOrganization()
    const clock = api.world.clock
    clock.advance(DAY - ((clock.now().getTime() - 6 * HOUR) % DAY))
    const admin = await api.tokenFor(world, 'org_admin')
    await api.call('PUT', '/api/organizations/settings', { token: admin, body: { digestHour: 12, timeZone: 'UTC' } })
    const pantry = await world.partner({ name: 'Pantry' })
    const agent = await api.tokenFor(world, 'partner_agent', { partnerId: pantry.id })
    const staff = await api.tokenFor(world, 'staff')
    const person = { firstName: 'Ada', lastName: 'Lovelace', phone: '+15550100199', email: 'ada.l@example.org' }
    const created = await api.call('POST', '/api/needs', {
      token: admin,
      body: { partnerId: pantry.id, customFields: { ...person, story: 'Rent is late' } },
    })
    expect(created.status).toBe(201)
    const reference = created.body.referenceNumber as string
    const members = await Promise.all([admin, agent, staff].map(emailOf))
    clock.advance(6 * HOUR)
    const runEverywhere = () =>
      Promise.all(instances().flatMap((server) => [1, 2, 3].map(() => useCasesOf(server.container).operations.sendDailyDigests.execute())))

    for (let day = 1; day <= 2; day++) {
      await runEverywhere()
      for (const email of members) await deliverUntil(api, () => digestsTo(email)[day - 1], `day ${day}'s digest to ${email}`)
      await runEverywhere()
      await deliverUntil(api, () => true)
      for (const email of members) expect(digestsTo(email)).toHaveLength(day)
      clock.advance(DAY)
    }
    const [mail] = digestsTo(members[1]!)
    expect(mail!.text).toContain(`- ${reference} · Pantry · NEW · due `)
    expect(mail!.text).toContain(`${BASE_URL}/#/needs/${reference}`)
    for (const personal of [...Object.values(person), 'Rent is late']) expect(mail!.text).not.toContain(personal)
  })
})
