import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import twilio from 'twilio'
import { SetOrganizationPhoneNumber } from '../../../src/application/organizations/set-organization-phone-number'
import { ApplyRetention } from '../../../src/application/retention/apply-retention'
import { PORTS } from '../../../src/main/container'
import { aConstituent, aHousehold } from '../../support/builders'
import { startTestServer, type TestServer } from '../../support/http'
import type { World } from '../../support/world'
import { expectProblem, seedConstituent } from './helpers'

// docs/privacy.md, over real HTTP (SQLite, and PostgreSQL with TEST_DATABASE=postgres): once a person is
// erased, no answer, search, export or stored row holds any of their values.

const AUTH_TOKEN = 'test-token'
const PUBLIC_BASE_URL = 'https://intake.example.org'
const ORG_NUMBER = '+15550001000'
const PERSON = {
  firstName: 'Quintessa',
  lastName: 'Marchbanks',
  phone: '+15038675309',
  email: 'quintessa.marchbanks@example.org',
  dateOfBirth: '1968-07-23',
  addressStreet: '9921 Wisteria Hollow',
  addressCity: 'Tualatin',
  addressState: 'OR',
  addressZip: '97062',
}
/** What tells the person in any form the service keeps it: lower-cased names and keys, the phone's digits. */
const TELLING = ['quintessa', 'marchbanks', '8675309', '1968-07-23', 'wisteria', 'tualatin']

let api: TestServer
let world: World
let admin: string

const leaksIn = (texts: string[]) => {
  const all = texts.join('\n').toLowerCase()
  return TELLING.filter((value) => all.includes(value))
}

async function text(path: string): Promise<string> {
  const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${admin}` } })
  expect({ path, status: response.status }).toEqual({ path, status: 200 })
  return response.text()
}

/** A person registered by an intake whose contact keys name them, with a second need naming them. */
async function aPersonWithNeeds(
  customFields: Record<string, unknown>,
): Promise<{ personId: string; householdId: string; needIds: string[] }> {
  const intake = await api.call<{ id: string; constituentId: string }>('POST', '/api/needs', {
    token: admin,
    body: { partnerId: world.defaultPartner.id, customFields },
  })
  expect(intake.status).toBe(201)
  const personId = intake.body.constituentId
  const second = await api.call<{ id: string }>('POST', '/api/needs', {
    token: admin,
    body: { partnerId: world.defaultPartner.id, constituentId: personId, customFields: { note: 'second visit' } },
  })
  const { householdId } = (await api.call<{ householdId: string }>('GET', `/api/constituents/${personId}`, { token: admin })).body
  return { personId, householdId, needIds: [intake.body.id, second.body.id] }
}

/** Every answer an admin may get that could show the person. */
async function answers(personId: string, needIds: string[]): Promise<string[]> {
  const searches = ['Quintessa', 'marchb', '8675309', '503 867', PERSON.email, PERSON.phone].map(
    (query) => `/api/constituents?limit=100&query=${encodeURIComponent(query)}`,
  )
  const paths = [
    `/api/constituents/${personId}`,
    `/api/constituents/${personId}/needs`,
    `/api/constituents/${personId}/household`,
    '/api/constituents?limit=100',
    ...searches,
    '/api/constituents/export?format=csv',
    '/api/needs?limit=100',
    '/api/needs/export?format=csv',
    ...needIds.flatMap((id) => [`/api/needs/${id}`, `/api/needs/${id}/interactions`, `/api/needs/${id}/history`]),
    '/api/household-matches?limit=100',
    '/api/audit-events?limit=100',
  ]
  const texts: string[] = []
  for (const path of paths) texts.push(await text(path))
  return texts
}

const erase = (personId: string, token = admin) =>
  api.call<Record<string, unknown>>('POST', `/api/constituents/${personId}/erase`, { token })

beforeAll(async () => {
  api = await startTestServer({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    PUBLIC_BASE_URL,
    // The texts to the person stay in the outbox, unsent, for the erasure to find.
    SERVE_RUNS_WORKER: 'false',
  })
  world = api.world
  admin = await api.tokenFor(world, 'org_admin')
  const organization = await world.repositories.organizations.findById(world.organizationId)
  await api.server.container.get(SetOrganizationPhoneNumber).execute(organization!.slug, ORG_NUMBER)
})
afterAll(() => api.stop())

describe('POST /api/constituents/{id}/erase', () => {
  test('answers the emptied record; afterwards no answer, search, export or stored row holds any of the person’s values', async () => {
    const { personId, householdId, needIds } = await aPersonWithNeeds({ ...PERSON, householdSize: 4 })
    // Someone who shared the phone: a household match names both, and stays once their own number changes.
    const twin = await seedConstituent(api, admin, { firstName: 'Zed', lastName: 'Other', phone: PERSON.phone })
    expect(
      (await api.call('PUT', `/api/constituents/${twin.constituentId}`, { token: admin, body: { phone: '+15550009999' } })).status,
    ).toBe(200)
    // A text from the person, and one to them that has not left yet.
    const params = {
      From: PERSON.phone,
      To: ORG_NUMBER,
      Body: 'Is the pantry open on Saturday?',
      MessageSid: `SM${'1'.repeat(32)}`,
      AccountSid: `AC${'0'.repeat(32)}`,
    }
    const path = '/api/webhooks/twilio/sms'
    const inbound = await api.call('POST', path, {
      raw: new URLSearchParams(params).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}${path}`, params),
      },
    })
    expect(inbound.status).toBe(200)
    expect((await api.call('POST', `/api/needs/${needIds[1]}/sms`, { token: admin, body: { body: 'Your box is ready' } })).status).toBe(202)
    // The answers and rows looked through do show the person before.
    expect(leaksIn(await answers(personId, needIds))).toEqual(TELLING)
    expect(leaksIn(await api.storedRows())).toEqual(TELLING)

    const erased = await erase(personId)

    expect({ status: erased.status, body: erased.body }).toEqual({
      status: 200,
      body: { id: personId, householdId, erasedAt: expect.any(String) },
    })
    expect(leaksIn(await answers(personId, needIds))).toEqual([])
    expect(leaksIn(await api.storedRows())).toEqual([])
  })

  test('the needs stay, linked to the erased record, without its contact keys; the audit trail names the erasure and no value', async () => {
    const { personId, needIds } = await aPersonWithNeeds({ firstName: 'Ulla', lastName: 'Staying', householdSize: 2 })
    expect((await erase(personId)).status).toBe(200)

    const needs = await api.call<Array<{ id: string; customFields: object }>>('GET', `/api/constituents/${personId}/needs`, {
      token: admin,
    })
    expect(needs.body.map((n) => n.id).sort()).toEqual([...needIds].sort())
    expect(needs.body.find((n) => n.id === needIds[0])!.customFields).toEqual({ householdSize: 2 })
    const events = await api.call<Array<Record<string, unknown>>>(
      'GET',
      `/api/audit-events?recordType=constituent&recordId=${personId}&action=erase`,
      { token: admin },
    )
    expect(events.body).toEqual([expect.objectContaining({ action: 'erase', recordType: 'constituent', recordId: personId })])
    expect(events.body[0]).not.toHaveProperty('fields')
  })

  test('erasing again answers the same and records nothing more', async () => {
    const { constituentId } = await seedConstituent(api, admin, { firstName: 'Twice', lastName: 'Asked' })
    const first = await erase(constituentId)
    const again = await erase(constituentId)
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body })
    const events = await api.call<unknown[]>('GET', `/api/audit-events?recordId=${constituentId}&recordType=constituent&action=erase`, {
      token: admin,
    })
    expect(events.body).toHaveLength(1)
  })

  test('a merge with the erased record, and an update of it, are 409', async () => {
    const { constituentId: erased } = await seedConstituent(api, admin, { firstName: 'Gone', lastName: 'Now' })
    const other = await seedConstituent(api, admin, { firstName: 'Oda', lastName: 'Kept' })
    expect((await erase(erased)).status).toBe(200)
    for (const [sourceConstituentId, targetConstituentId] of [
      [erased, other.constituentId],
      [other.constituentId, erased],
    ]) {
      expectProblem(
        await api.call('POST', '/api/constituents/merge', { token: admin, body: { sourceConstituentId, targetConstituentId } }),
        409,
        'Conflict',
      )
    }
    expectProblem(await api.call('PUT', `/api/constituents/${erased}`, { token: admin, body: { firstName: 'Q' } }), 409, 'Conflict')
  })

  test('another organization’s admin finds no one (404); staff may not erase (403)', async () => {
    const other = await world.otherOrganization()
    const foreign = await seedConstituent(api, await api.tokenFor(other, 'org_admin'), { firstName: 'Far', lastName: 'Away' })
    expectProblem(await erase(foreign.constituentId), 404, 'Not found')
    const mine = await seedConstituent(api, admin, { firstName: 'Near', lastName: 'By' })
    const staff = await api.tokenFor(world, 'staff', { profiles: ['pii_reader', 'duplicate_resolver'] })
    expectProblem(await erase(mine.constituentId, staff), 403, 'Forbidden')
  })
})

describe('retention (docs/privacy.md "Retention")', () => {
  test('a person idle past the organization’s constituentRetentionDays is erased by the worker’s run, which the trail answers with its counts', async () => {
    const other = await world.otherOrganization()
    const otherAdmin = await api.tokenFor(other, 'org_admin')
    const longAgo = new Date(world.clock.now().getTime() - 40 * 86_400_000)
    const household = aHousehold({ organizationId: other.organizationId, createdAt: longAgo })
    const idle = aConstituent({
      organizationId: other.organizationId,
      householdId: household.id,
      firstName: 'Ida',
      lastName: 'Longago',
      phone: '+15037770000',
      createdAt: longAgo,
      updatedAt: longAgo,
    })
    await api.server.container.get(PORTS.unitOfWork).run(async (r) => {
      await r.constituents.insertHousehold(household)
      await r.constituents.insert(idle)
    })
    expect(
      (await api.call('PUT', '/api/organizations/settings', { token: otherAdmin, body: { constituentRetentionDays: 30 } })).status,
    ).toBe(200)

    await api.server.container.get(ApplyRetention).execute()

    const erased = await api.call<Record<string, unknown>>('GET', `/api/constituents/${idle.id}`, { token: otherAdmin })
    expect(erased.body).toEqual({ id: idle.id, householdId: household.id, erasedAt: world.clock.now().toISOString() })
    const runs = await api.call<Array<Record<string, unknown>>>('GET', '/api/audit-events?action=apply_retention', { token: otherAdmin })
    expect(runs.body).toEqual([
      expect.objectContaining({
        recordType: 'organization',
        recordId: other.organizationId,
        counts: { constituentsErased: 1, needTextsCleared: 0 },
      }),
    ])
    expect(runs.body[0]).not.toHaveProperty('memberId')
  })
})
