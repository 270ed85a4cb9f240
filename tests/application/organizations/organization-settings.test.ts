import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../../src/domain/audit/audit-event'
import { beforeEach, describe, expect, test } from 'bun:test'
import type {
  GetOrganizationSettings,
  UpdateOrganizationSettings,
  UpdateOrganizationSettingsInput,
} from '../../../src/application/organizations/organization-settings'
import { ConflictError, ForbiddenError, InvalidError } from '../../../src/domain/errors'
import type { Organization } from '../../../src/domain/organizations/organization'
import { DEFAULT_DIGEST_HOUR, DEFAULT_TIME_ZONE } from '../../../src/domain/organizations/digest-schedule'
import { createWorld, type World } from '../../support/world'
import { failureOf, pathsOf } from '../failure-of'

let world: World
let getSettings: GetOrganizationSettings
let updateSettings: UpdateOrganizationSettings
beforeEach(async () => {
  world = await createWorld()
  getSettings = world.useCases.organizations.getSettings
  updateSettings = world.useCases.organizations.updateSettings
})

const stored = async (w = world): Promise<Organization> => (await w.repositories.organizations.findById(w.organizationId))!
const input = (overrides: Partial<UpdateOrganizationSettingsInput> = {}): UpdateOrganizationSettingsInput => ({
  name: 'Harbor Food Bank',
  slug: 'harbor-food-bank',
  ...overrides,
})

/** Gives the organization a short code, a registration status and a concurrency to keep or clear. */
async function withEverySetting() {
  await updateSettings.execute(world.admin, input({ shortCode: 'HARB', tcrStatus: 'VERIFIED', maxConcurrency: 12 }))
}

describe('GetOrganizationSettings', () => {
  test("answers the caller's organization without createdAt", async () => {
    const organization = await stored()
    const { createdAt: _createdAt, ...fields } = organization
    const expected = {
      ...fields,
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      appOrigins: [],
      formOrigins: [],
      digestHour: DEFAULT_DIGEST_HOUR,
      timeZone: DEFAULT_TIME_ZONE,
      confirmRequests: false,
      publishDirectory: false,
    }
    const settings = await getSettings.execute(world.admin)
    expect(settings).toEqual(expected)
    expect(settings).toMatchObject({ id: world.organizationId, maxConcurrency: 5 })
    expect(settings).not.toHaveProperty('createdAt')
  })

  test('answers only its own organization', async () => {
    const other = await world.otherOrganization()
    expect((await getSettings.execute(other.admin)).id).toBe(other.organizationId)
    expect((await getSettings.execute(world.admin)).id).toBe(world.organizationId)
  })

  test('only an org_admin may read them (Forbidden for every other role)', async () => {
    const partner = await world.partner()
    for (const role of ['staff', 'partner_admin', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, role === 'staff' ? {} : { partnerId: partner.id })
      await failureOf(getSettings.execute(actor), ForbiddenError)
    }
  })
})

describe('UpdateOrganizationSettings', () => {
  test('sets every field, answers the settings and stores them', async () => {
    const settings = await updateSettings.execute(
      world.admin,
      input({
        shortCode: 'HARB',
        maxConcurrency: 20,
        tcrStatus: 'IN_PROGRESS',
        digestHour: 17,
        timeZone: 'America/Chicago',
        confirmRequests: true,
        publishDirectory: true,
      }),
    )
    expect(settings).toEqual({
      id: world.organizationId,
      name: 'Harbor Food Bank',
      slug: 'harbor-food-bank',
      shortCode: 'HARB',
      maxConcurrency: 20,
      tcrStatus: 'IN_PROGRESS',
      auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS,
      appOrigins: [],
      formOrigins: [],
      digestHour: 17,
      timeZone: 'America/Chicago',
      confirmRequests: true,
      publishDirectory: true,
      defaultCountry: 'US',
    })
    const { auditRetentionDays: _default, appOrigins: _apps, formOrigins: _forms, ...kept } = settings
    expect(await stored()).toMatchObject(kept)
  })

  test('trims the name', async () => {
    expect((await updateSettings.execute(world.admin, input({ name: '  Harbor  ' }))).name).toBe('Harbor')
    expect((await stored()).name).toBe('Harbor')
  })

  test('a blank name is Invalid at /name and nothing changes', async () => {
    const before = await stored()
    expect(pathsOf(await failureOf(updateSettings.execute(world.admin, input({ name: '   ' })), InvalidError))).toEqual(['/name'])
    expect(await stored()).toEqual(before)
  })

  test('keeps shortCode, tcrStatus and maxConcurrency when they are left out', async () => {
    await withEverySetting()
    const settings = await updateSettings.execute(world.admin, { name: 'Renamed', slug: 'renamed' })
    expect(settings).toMatchObject({ name: 'Renamed', slug: 'renamed', shortCode: 'HARB', tcrStatus: 'VERIFIED', maxConcurrency: 12 })
    expect(await stored()).toMatchObject({ shortCode: 'HARB', tcrStatus: 'VERIFIED', maxConcurrency: 12 })
  })

  test('null clears shortCode and tcrStatus', async () => {
    await withEverySetting()
    const settings = await updateSettings.execute(world.admin, input({ shortCode: null, tcrStatus: null }))
    expect(settings).not.toHaveProperty('shortCode')
    expect(settings).not.toHaveProperty('tcrStatus')
    const after = await stored()
    expect(after.shortCode).toBeUndefined()
    expect(after.tcrStatus).toBeUndefined()
    expect(after.maxConcurrency).toBe(12)
  })

  test('keeps the provisioned phone number and the creation time', async () => {
    const before = await stored()
    await updateSettings.execute(world.admin, input({ shortCode: 'HARB' }))
    const after = await stored()
    expect(after.createdAt).toEqual(before.createdAt)
    expect(after.phoneNumber).toEqual(before.phoneNumber)
  })

  test('a new short code prefixes new reference numbers only; clearing it goes back to REQ', async () => {
    const createNeed = world.useCases.needs.create
    const first = await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })
    await updateSettings.execute(world.admin, input({ shortCode: 'HARB' }))
    const second = await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })
    await updateSettings.execute(world.admin, input({ shortCode: null }))
    const third = await createNeed.execute(world.admin, { partnerId: world.defaultPartner.id })
    expect([first, second, third].map((n) => n.referenceNumber)).toEqual(['REQ-1001', 'HARB-1002', 'REQ-1003'])
    expect((await world.repositories.needs.findById(world.organizationId, first.id))!.referenceNumber).toBe('REQ-1001')
  })

  test('an organization may send its own slug and short code again', async () => {
    await withEverySetting()
    expect((await updateSettings.execute(world.admin, input({ shortCode: 'HARB' }))).slug).toBe('harbor-food-bank')
  })

  describe('uniqueness across organizations', () => {
    let other: World
    beforeEach(async () => {
      other = await world.otherOrganization()
      await other.useCases.organizations.updateSettings.execute(other.admin, { name: 'Other', slug: 'taken-slug', shortCode: 'TAKN' })
    })

    test("another organization's slug is a Conflict and nothing changes", async () => {
      const before = await stored()
      await failureOf(updateSettings.execute(world.admin, input({ slug: 'taken-slug' })), ConflictError)
      expect(await stored()).toEqual(before)
    })

    test("another organization's short code is a Conflict and nothing changes", async () => {
      const before = await stored()
      await failureOf(updateSettings.execute(world.admin, input({ shortCode: 'TAKN' })), ConflictError)
      expect(await stored()).toEqual(before)
    })

    test('a short code freed by the other organization can be taken', async () => {
      await other.useCases.organizations.updateSettings.execute(other.admin, { name: 'Other', slug: 'taken-slug', shortCode: null })
      expect((await updateSettings.execute(world.admin, input({ shortCode: 'TAKN' }))).shortCode).toBe('TAKN')
    })

    test('leaves the other organization as it was', async () => {
      await failureOf(updateSettings.execute(world.admin, input({ slug: 'taken-slug' })), ConflictError)
      expect(await stored(other)).toMatchObject({ name: 'Other', slug: 'taken-slug', shortCode: 'TAKN' })
    })
  })

  test('only an org_admin may change them (Forbidden), and nothing changes', async () => {
    const before = await stored()
    const partner = await world.partner()
    for (const role of ['staff', 'partner_admin', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, role === 'staff' ? {} : { partnerId: partner.id, profiles: ['needs_processor'] })
      await failureOf(updateSettings.execute(actor, input()), ForbiddenError)
    }
    expect(await stored()).toEqual(before)
  })
})

describe('appOrigins and formOrigins', () => {
  test('are set, kept when left out, replaced when given and emptied by []', async () => {
    const set = await updateSettings.execute(world.admin, {
      appOrigins: ['https://staff.example.org'],
      formOrigins: ['https://pantry.example.net:8443'],
    })
    expect(set).toMatchObject({ appOrigins: ['https://staff.example.org'], formOrigins: ['https://pantry.example.net:8443'] })
    expect(await updateSettings.execute(world.admin, { name: 'Renamed' })).toMatchObject({
      appOrigins: ['https://staff.example.org'],
      formOrigins: ['https://pantry.example.net:8443'],
    })
    expect(await updateSettings.execute(world.admin, { appOrigins: ['https://a.example.org', 'https://b.example.org'] })).toMatchObject({
      appOrigins: ['https://a.example.org', 'https://b.example.org'],
      formOrigins: ['https://pantry.example.net:8443'],
    })
    expect(await updateSettings.execute(world.admin, { appOrigins: [], formOrigins: [] })).toMatchObject({
      appOrigins: [],
      formOrigins: [],
    })
    expect(await getSettings.execute(world.admin)).toMatchObject({ appOrigins: [], formOrigins: [] })
  })

  test.each([
    ['a URL with a path', 'https://staff.example.org/app'],
    ['plain http', 'http://staff.example.org'],
    ['a trailing slash', 'https://staff.example.org/'],
    ['upper case', 'https://Staff.example.org'],
    ['the default port written out', 'https://staff.example.org:443'],
    ['credentials', 'https://user@staff.example.org'],
    ['not a URL', 'staff.example.org'],
  ])('%s is Invalid at the list, and nothing changes', async (_name, origin) => {
    const before = await stored()
    for (const field of ['appOrigins', 'formOrigins'] as const) {
      expect(pathsOf(await failureOf(updateSettings.execute(world.admin, { [field]: [origin] }), InvalidError))).toEqual([`/${field}`])
    }
    expect(await stored()).toEqual(before)
  })

  test('a repeated origin and more than 20 are Invalid', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `https://site${i}.example.org`)
    expect(
      pathsOf(
        await failureOf(
          updateSettings.execute(world.admin, { appOrigins: ['https://a.example.org', 'https://a.example.org'] }),
          InvalidError,
        ),
      ),
    ).toEqual(['/appOrigins'])
    expect(pathsOf(await failureOf(updateSettings.execute(world.admin, { formOrigins: many }), InvalidError))).toEqual(['/formOrigins'])
    expect(await updateSettings.execute(world.admin, { formOrigins: many.slice(0, 20) })).toMatchObject({ formOrigins: many.slice(0, 20) })
  })
})

describe('the daily digest hour and time zone, and requester confirmations', () => {
  test('are kept when left out of a later update', async () => {
    await updateSettings.execute(world.admin, { digestHour: 0, timeZone: 'Europe/Madrid', confirmRequests: true })
    expect(await updateSettings.execute(world.admin, { name: 'Renamed' })).toMatchObject({
      digestHour: 0,
      timeZone: 'Europe/Madrid',
      confirmRequests: true,
    })
    expect(await updateSettings.execute(world.admin, { confirmRequests: false })).toMatchObject({ digestHour: 0, confirmRequests: false })
    expect(await stored()).toMatchObject({ digestHour: 0, timeZone: 'Europe/Madrid', confirmRequests: false })
  })

  test.each([
    ['an hour past 23', { digestHour: 24 }, '/digestHour'],
    ['a negative hour', { digestHour: -1 }, '/digestHour'],
    ['a fractional hour', { digestHour: 7.5 }, '/digestHour'],
    ['an unknown time zone', { timeZone: 'Mars/Olympus_Mons' }, '/timeZone'],
    ['an offset instead of a zone name', { timeZone: '+05:00' }, '/timeZone'],
    ['an empty time zone', { timeZone: '' }, '/timeZone'],
    ['a time zone with spaces', { timeZone: ' UTC' }, '/timeZone'],
    ['a confirmation that is not a boolean', { confirmRequests: 'yes' as unknown as boolean }, '/confirmRequests'],
  ])('%s is Invalid at its field, and nothing changes', async (_name, change, path) => {
    const before = await stored()
    expect(pathsOf(await failureOf(updateSettings.execute(world.admin, change), InvalidError))).toEqual([path])
    expect(await stored()).toEqual(before)
  })
})
