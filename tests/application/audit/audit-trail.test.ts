import { beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import type { UseCases } from '../../../src/application/use-cases'
import type { AuditAction, AuditEvent, AuditRecordType } from '../../../src/domain/audit/audit-event'
import type { Actor } from '../../../src/domain/auth/actor'
import { ConflictError } from '../../../src/domain/errors'
import { createContainer, PORTS } from '../../../src/main/container'
import { aFile } from '../../support/builders'
import { FixedClock } from '../../support/fixed-clock'
import { cheapPasswords, createWorld, TEST_PASSWORD, testConfig, type World } from '../../support/world'
import { failureOf } from '../failure-of'
import { recordingLogger, type LogEntry } from '../mail-world'
import { FakeWebhookVerifier, VALID_SIGNATURE } from '../sms-world'

// docs/audit.md: every write use case records what it did in its own transaction. Each use case of the
// record the edges are handed is listed below, as audited (with a scenario that runs it) or as not a write
// (with the reason): a new use case that is neither fails the first test.

let world: World
let logs: LogEntry[]
let adminEmail: string
let slug: string
const NEW_PASSWORD = 'another horse battery staple'

beforeAll(async () => {
  const config = testConfig({ PUBLIC_BASE_URL: 'https://intake.example.org' })
  const clock = new FixedClock()
  const recording = recordingLogger()
  logs = recording.logs
  const container = createContainer(config, { clock, passwords: cheapPasswords(), logger: recording.logger })
  container.rebind(PORTS.smsWebhooks).toConstantValue(new FakeWebhookVerifier())
  world = await createWorld(config, container, clock)
  adminEmail = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!.email
  slug = (await world.repositories.organizations.findById(world.organizationId))!.slug
})

const u = () => world.useCases

/** The one-time token of the newest email sent to `to` (the log fallback writes each email out). */
async function tokenMailedTo(to: string): Promise<string> {
  // Every round the worker would make: one round claims only the organization's oldest few messages, and
  // earlier scenarios may have left more than that.
  await world.container.get(PORTS.deferredWork).settled()
  for (let round = 0; round < 50 && (await world.container.get(DispatchOutbox).runOnce()) > 0; round++);
  const mail = logs.filter((e) => e.fields.to === to).at(-1)
  const token = /token=([A-Za-z0-9_-]+)/.exec(String(mail?.fields.text))?.[1]
  if (!token) throw new Error(`no link mailed to ${to}`)
  return token
}

async function aConstituent(fields: Record<string, string> = {}) {
  return u().constituents.create.execute(world.admin, {
    firstName: 'Ana',
    lastName: `L${randomUUID().slice(0, 6)}`,
    phone: '+15035550101',
    ...fields,
  })
}

async function aNeed(actor: Actor = world.admin, constituentId?: string) {
  return u().needs.create.execute(actor, {
    partnerId: world.defaultPartner.id,
    customFields: {},
    ...(constituentId ? { constituentId } : {}),
  })
}

/** Disabled: deliveries queued for it would take the organization's outbox slots from the mail other scenarios read. */
async function aWebhookEndpoint() {
  return u().webhooks.create.execute(world.admin, { url: 'http://127.0.0.1:9/hook', events: ['need.created'], enabled: false })
}

async function anInvitedMember() {
  const email = `m-${randomUUID().slice(0, 8)}@example.org`
  const member = await u().members.invite.execute(world.admin, { email, role: 'staff' })
  return { ...member, email }
}

/**
 * What a scenario expects to find in the trail: by whom (absent: nobody logged in), what, of which record,
 * in which organization (absent: the world's).
 */
interface Expected {
  organizationId?: string
  memberId?: string
  action: AuditAction
  recordType: AuditRecordType
  recordId: string
}

const byAdmin = (action: AuditAction, recordType: AuditRecordType, recordId: string): Expected => ({
  memberId: world.admin.memberId,
  action,
  recordType,
  recordId,
})

const AUDITED: Record<string, () => Promise<Expected>> = {
  'auth.login': async () => {
    await u().auth.login.execute({ email: adminEmail, password: TEST_PASSWORD })
    return byAdmin('login', 'member', world.admin.memberId)
  },
  'auth.logout': async () => {
    const { refreshToken } = await u().auth.login.execute({ email: adminEmail, password: TEST_PASSWORD })
    await u().auth.logout.execute(world.admin, refreshToken)
    return byAdmin('logout', 'member', world.admin.memberId)
  },
  'auth.acceptInvite': async () => {
    const member = await anInvitedMember()
    await u().auth.acceptInvite.execute({ token: await tokenMailedTo(member.email), password: NEW_PASSWORD })
    return { memberId: member.id, action: 'accept_invite', recordType: 'member', recordId: member.id }
  },
  'auth.requestPasswordReset': async () => {
    await u().auth.requestPasswordReset.execute({ email: adminEmail })
    await world.container.get(PORTS.deferredWork).settled()
    return { action: 'request_password_reset', recordType: 'member', recordId: world.admin.memberId }
  },
  'auth.resetPassword': async () => {
    await u().auth.requestPasswordReset.execute({ email: adminEmail })
    await u().auth.resetPassword.execute({ token: await tokenMailedTo(adminEmail), password: TEST_PASSWORD })
    return byAdmin('reset_password', 'member', world.admin.memberId)
  },
  'constituents.search': async () => {
    const constituent = await aConstituent()
    await u().constituents.search.execute(world.admin, constituent.lastName, { page: 1, limit: 10 })
    return byAdmin('read', 'constituent', constituent.id)
  },
  'constituents.checkDuplicates': async () => {
    const email = `${randomUUID()}@example.org`
    const constituent = await aConstituent({ email })
    await u().constituents.checkDuplicates.execute(world.admin, { firstName: 'Other', email })
    return byAdmin('read', 'constituent', constituent.id)
  },
  'constituents.get': async () => {
    const constituent = await aConstituent()
    await u().constituents.get.execute(world.admin, constituent.id)
    return byAdmin('read', 'constituent', constituent.id)
  },
  'constituents.household': async () => {
    const constituent = await aConstituent()
    await u().constituents.household.execute(world.admin, constituent.id)
    return byAdmin('read', 'constituent', constituent.id)
  },
  'constituents.export': async () => {
    const constituent = await aConstituent()
    for await (const _batch of await u().constituents.export.execute(world.admin, constituent.lastName)) {
      // each batch is recorded before it is handed on
    }
    return byAdmin('read', 'constituent', constituent.id)
  },
  'needs.export': async () => {
    const need = await u().needs.create.execute(world.admin, {
      partnerId: world.defaultPartner.id,
      customFields: { firstName: 'Eva', lastName: `X${randomUUID().slice(0, 6)}`, phone: '+15035550177' },
    })
    for await (const _batch of await u().needs.export.execute(world.admin, {})) {
      // each batch is recorded before it is handed on
    }
    return byAdmin('read', 'need', need.id)
  },
  'constituents.create': async () => byAdmin('create', 'constituent', (await aConstituent()).id),
  'constituents.import': async () => {
    await u().constituents.import.execute(world.admin, aFile(`firstName,lastName\nAna,I${randomUUID().slice(0, 6)}\n`), { dryRun: false })
    return byAdmin('import', 'organization', world.organizationId)
  },
  'needs.import': async () => {
    await u().needs.import.execute(world.admin, aFile(`description,createdAt\n${randomUUID()},2025-01-02\n`), { dryRun: false })
    return byAdmin('import', 'organization', world.organizationId)
  },
  'constituents.update': async () => {
    const constituent = await aConstituent()
    await u().constituents.update.execute(world.admin, constituent.id, { phone: '+15035550199' })
    return byAdmin('update', 'constituent', constituent.id)
  },
  'constituents.merge': async () => {
    const [source, target] = [await aConstituent({ phone: '+15035550111' }), await aConstituent({ phone: '+15035550112' })]
    await u().constituents.merge.execute(world.admin, { sourceConstituentId: source.id, targetConstituentId: target.id })
    return byAdmin('merge', 'constituent', source.id)
  },
  'constituents.erase': async () => {
    const constituent = await aConstituent()
    await u().constituents.erase.execute(world.admin, constituent.id)
    return byAdmin('erase', 'constituent', constituent.id)
  },
  'constituents.listMatches': async () => {
    const phone = '+15035550133'
    await aConstituent({ phone })
    const second = await aConstituent({ phone })
    await u().constituents.listMatches.execute(world.admin, 'OPEN', { page: 1, limit: 100 })
    return byAdmin('read', 'constituent', second.id)
  },
  'constituents.resolve': async () => {
    const phone = '+15035550144'
    await aConstituent({ phone })
    const second = await aConstituent({ phone })
    const match = (await u().constituents.listMatches.execute(world.admin, 'OPEN', { page: 1, limit: 100 })).items.find(
      (m) => m.constituentId === second.id,
    )
    await u().constituents.resolve.execute(world.admin, match!.id, { action: 'DISMISS' })
    return byAdmin('resolve', 'household_match', match!.id)
  },
  'members.invite': async () => byAdmin('invite', 'member', (await anInvitedMember()).id),
  'members.update': async () => {
    const member = await anInvitedMember()
    await u().members.update.execute(world.admin, member.id, { role: 'org_admin' })
    return byAdmin('update', 'member', member.id)
  },
  'members.resend': async () => {
    const member = await anInvitedMember()
    await u().members.resend.execute(world.admin, member.id)
    return byAdmin('invite', 'member', member.id)
  },
  'members.updateProfile': async () => {
    await u().members.updateProfile.execute(world.admin, { fullName: `Admin ${randomUUID().slice(0, 4)}` })
    return byAdmin('update', 'member', world.admin.memberId)
  },
  'members.changePassword': async () => {
    // A member of its own: the admin's password is the one the other scenarios log in with.
    const member = await world.member('staff', { passwordHash: await world.container.get(PORTS.passwords).hash(TEST_PASSWORD) })
    await u().members.changePassword.execute(member, { currentPassword: TEST_PASSWORD, newPassword: 'a password of my own choosing' })
    return { memberId: member.memberId, action: 'change_password', recordType: 'member', recordId: member.memberId }
  },
  'needs.create': async () => byAdmin('create', 'need', (await aNeed()).id),
  'needs.submitPublic': async () => {
    const need = await u().needs.submitPublic.execute({ organizationId: world.organizationId, description: 'Food for a family of four' })
    return { action: 'create', recordType: 'need', recordId: need.id }
  },
  'needs.update': async () => {
    const need = await aNeed()
    await u().needs.update.execute(world.admin, need.id, { status: 'IN_PROGRESS' })
    return byAdmin('update', 'need', need.id)
  },
  'needs.addNote': async () => {
    const need = await aNeed()
    await u().needs.addNote.execute(world.admin, need.id, 'Called back')
    return byAdmin('add_note', 'need', need.id)
  },
  'needs.sendSms': async () => {
    const need = await aNeed(world.admin, (await aConstituent({ phone: '+15035550155' })).id)
    await u().needs.sendSms.execute(world.admin, need.id, 'Your box is ready')
    return byAdmin('send_sms', 'need', need.id)
  },
  'organizations.updateSettings': async () => {
    await u().organizations.updateSettings.execute(world.admin, { auditRetentionDays: 400 })
    return byAdmin('update', 'organization', world.organizationId)
  },
  'organizations.updateEmail': async () => {
    // Another organization: this one's mail must stay with the log fallback, where the scenarios read their links.
    const other = await world.otherOrganization()
    await u().organizations.updateEmail.execute(other.admin, {
      provider: 'postmark',
      apiKey: 'pm-secret-key-1234',
      fromEmail: 'help@example.org',
    })
    return {
      organizationId: other.organizationId,
      memberId: other.admin.memberId,
      action: 'create',
      recordType: 'email_settings',
      recordId: other.organizationId,
    }
  },
  'partners.create': async () => {
    const partner = await u().partners.create.execute(world.admin, { name: 'Pantry', slaHours: 24 })
    return byAdmin('create', 'partner', partner.id)
  },
  'partners.update': async () => {
    const partner = await u().partners.create.execute(world.admin, { name: 'Shelter', slaHours: 24 })
    await u().partners.update.execute(world.admin, partner.id, { slaHours: 48 })
    return byAdmin('update', 'partner', partner.id)
  },
  'webhooks.create': async () => byAdmin('create', 'webhook_endpoint', (await aWebhookEndpoint()).id),
  'webhooks.update': async () => {
    const endpoint = await aWebhookEndpoint()
    await u().webhooks.update.execute(world.admin, endpoint.id, { events: ['note.added'] })
    return byAdmin('update', 'webhook_endpoint', endpoint.id)
  },
  'webhooks.delete': async () => {
    const endpoint = await aWebhookEndpoint()
    await u().webhooks.delete.execute(world.admin, endpoint.id)
    return byAdmin('delete', 'webhook_endpoint', endpoint.id)
  },
  'sms.receive': async () => {
    const number = `+1503${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
    await u().operations.setOrganizationPhoneNumber.execute(slug, number)
    const sid = `SM${randomUUID()}`
    await u().sms.receive.execute({
      url: 'https://intake.example.org/api/webhooks/twilio/sms',
      params: { From: '+15035550166', To: number, Body: 'Hi', MessageSid: sid },
      signature: VALID_SIGNATURE,
    })
    const interaction = await world.repositories.interactions.findByProviderMessageId(sid)
    return { action: 'receive_sms', recordType: 'interaction', recordId: interaction!.id }
  },
  'sms.recordStatus': async () => {
    const need = await aNeed()
    const interaction = {
      id: randomUUID(),
      organizationId: world.organizationId,
      needId: need.id,
      channel: 'sms',
      direction: 'outbound',
      senderIdentifier: 'system',
      deliveryStatus: 'sent',
      providerMessageId: `SM${randomUUID()}`,
      createdAt: world.clock.now(),
    } as const
    await world.container.get(PORTS.unitOfWork).run((r) => r.interactions.insert(interaction))
    await u().sms.recordStatus.execute({
      url: 'https://intake.example.org/api/webhooks/twilio/status',
      params: { MessageSid: interaction.providerMessageId, MessageStatus: 'delivered' },
      signature: VALID_SIGNATURE,
    })
    return { action: 'sms_status', recordType: 'interaction', recordId: interaction.id }
  },
  'operations.createOrganization': async () => {
    const suffix = randomUUID().slice(0, 8)
    const created = await u().operations.createOrganization.execute({
      name: `Org ${suffix}`,
      slug: `org-${suffix}`,
      adminEmail: `a-${suffix}@example.org`,
      adminPassword: TEST_PASSWORD,
    })
    return { organizationId: created.organizationId, action: 'create', recordType: 'organization', recordId: created.organizationId }
  },
  'operations.setOrganizationPhoneNumber': async () => {
    await u().operations.setOrganizationPhoneNumber.execute(slug, `+1971${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`)
    return { action: 'update', recordType: 'organization', recordId: world.organizationId }
  },
  'operations.importFile': async () => {
    await u().operations.importFile.execute(slug, 'constituents', aFile(`firstName,lastName\nBo,I${randomUUID().slice(0, 6)}\n`), {
      dryRun: false,
    })
    return { action: 'import', recordType: 'organization', recordId: world.organizationId }
  },
  'operations.applyRetention': async () => {
    const suffix = randomUUID().slice(0, 8)
    const { organizationId } = await u().operations.createOrganization.execute({
      name: `Org ${suffix}`,
      slug: `org-${suffix}`,
      adminEmail: `a-${suffix}@example.org`,
      adminPassword: TEST_PASSWORD,
    })
    const organization = (await world.repositories.organizations.findById(organizationId))!
    await world.container.get(PORTS.unitOfWork).run((r) => r.organizations.update({ ...organization, needTextRetentionDays: 30 }))
    await u().operations.applyRetention.execute()
    return { organizationId, action: 'apply_retention', recordType: 'organization', recordId: organizationId }
  },
  'operations.setMemberPassword': async () => {
    await u().operations.setMemberPassword.execute({ email: adminEmail, password: TEST_PASSWORD })
    return { action: 'set_password', recordType: 'member', recordId: world.admin.memberId }
  },
}

/** Use cases that change no record of an organization's, or read no personal details, and why. */
const NOT_AUDITED: Record<string, string> = {
  'auth.authenticate': 'reads the caller’s own member on every request',
  'auth.refresh': 'rotates a session’s token; the login that began the session is recorded',
  'constituents.listNeeds': 'answers needs, not the constituent’s details',
  'members.list': 'reads members, not constituents',
  'members.getProfile': 'the caller’s own profile',
  'needs.list': 'reads needs',
  'needs.get': 'reads a need',
  'needs.getPublicForm': 'reads an organization’s name, for the public intake page',
  'needs.listInteractions': 'reads a need’s interactions',
  'needs.listHistory': 'reads a need’s history',
  'organizations.getSettings': 'reads settings',
  'organizations.getEmail': 'reads settings, the key masked',
  'organizations.testEmail': 'stores nothing: sends one message with settings it was given',
  'partners.list': 'reads partners',
  'audit.list': 'reads the trail itself',
  'reports.needs': 'reads counts of needs, no record of a person',
  'webhooks.list': 'reads endpoints, no secret',
  'webhooks.get': 'reads an endpoint, no secret',
  'webhooks.listDeliveries': 'reads deliveries: ids and statuses',
  'operations.dispatchOutbox': 'sends what an audited write queued',
  'operations.purgeAuditEvents': 'the retention purge, the trail’s only deletion',
  'operations.sendDailyDigests': 'queues mail that names needs, never people; changes only the member’s digest date',
}

function useCaseNames(useCases: UseCases): string[] {
  return Object.entries(useCases).flatMap(([area, cases]) => Object.keys(cases).map((name) => `${area}.${name}`))
}

describe('the audit trail (docs/audit.md)', () => {
  test('every use case the edges are handed is either audited or listed as no write, with the reason', () => {
    const listed = [...Object.keys(AUDITED), ...Object.keys(NOT_AUDITED)]
    expect(new Set(listed).size).toBe(listed.length)
    expect(useCaseNames(u()).sort()).toEqual(listed.sort())
  })

  for (const [name, scenario] of Object.entries(AUDITED)) {
    test(`${name} records what it did, by whom`, async () => {
      const expected = await scenario()
      const { organizationId, ...event } = expected
      const { items } = await world.repositories.auditEvents.list(
        organizationId ?? world.organizationId,
        { action: event.action },
        { page: 1, limit: 100 },
      )
      const found = items.find((e) => e.recordType === event.recordType && e.recordId === event.recordId && e.memberId === event.memberId)
      expect(found).toBeDefined()
      expect(found!.at).toEqual(world.clock.now())
      expect(found).not.toHaveProperty('requestId') // no HTTP request here
    })
  }
})

describe('what an event holds', () => {
  async function eventsOf(recordId: string): Promise<AuditEvent[]> {
    return (
      await world.repositories.auditEvents.list(world.organizationId, { recordType: 'constituent', recordId }, { page: 1, limit: 100 })
    ).items
  }

  test('an update names the fields it changed, never their values', async () => {
    const constituent = await aConstituent({ email: 'ana@example.org' })
    await u().constituents.update.execute(world.admin, constituent.id, { phone: '+15035550177', addressCity: 'Portland' })
    const [update] = (await eventsOf(constituent.id)).filter((e) => e.action === 'update')
    expect(update?.fields).toEqual(['addressCity', 'phone'])
    expect(JSON.stringify(await eventsOf(constituent.id))).not.toContain('5035550177')
    expect(JSON.stringify(await eventsOf(constituent.id))).not.toContain('Portland')
  })

  test('a read names the personal details the caller saw; a caller who saw none is not recorded', async () => {
    const constituent = await aConstituent({ email: 'bo@example.org', dateOfBirth: '1980-02-03' })
    const staff = await world.member('staff')
    const contactReader = await world.member('staff', { profiles: ['email_phone_communicator'] })
    await u().constituents.get.execute(staff, constituent.id)
    await u().constituents.get.execute(contactReader, constituent.id)
    await u().constituents.get.execute(world.admin, constituent.id)
    const reads = (await eventsOf(constituent.id)).filter((e) => e.action === 'read')
    expect(reads.map((e) => [e.memberId, e.fields])).toEqual(
      expect.arrayContaining([
        [contactReader.memberId, ['phone', 'email']],
        [world.admin.memberId, ['phone', 'email', 'dateOfBirth']],
      ]),
    )
    expect(reads).toHaveLength(2)
  })

  test('a search records one event per constituent shown, in one transaction', async () => {
    const lastName = `Q${randomUUID().slice(0, 6)}`
    // Each with a phone of its own: a shared one would show each to the next one's creator, a read of its own.
    const people = [
      await aConstituent({ lastName, phone: '+15035550111' }),
      await aConstituent({ lastName, phone: '+15035550112' }),
      await aConstituent({ lastName, phone: '+15035550113' }),
    ]
    const page = await u().constituents.search.execute(world.admin, lastName, { page: 1, limit: 2 })
    const read = await Promise.all(people.map(async (p) => (await eventsOf(p.id)).filter((e) => e.action === 'read').length))
    expect(read.filter((n) => n === 1)).toHaveLength(page.items.length)
    expect(read.reduce((a, b) => a + b)).toBe(2)
  })

  test('resolving a match records the read of both people it answers, with the resolution', async () => {
    const phone = '+15035550188'
    const first = await aConstituent({ phone })
    const second = await aConstituent({ phone })
    const match = (await u().constituents.listMatches.execute(world.admin, 'OPEN', { page: 1, limit: 100 })).items.find(
      (m) => m.constituentId === second.id,
    )
    const readsBefore = async (id: string) => (await eventsOf(id)).filter((e) => e.action === 'read').length
    const [firstBefore, secondBefore] = [await readsBefore(first.id), await readsBefore(second.id)]
    await u().constituents.resolve.execute(world.admin, match!.id, { action: 'DISMISS' })
    expect([await readsBefore(first.id), await readsBefore(second.id)]).toEqual([firstBefore + 1, secondBefore + 1])
  })

  test('a write that fails leaves no event', async () => {
    const before = (await world.repositories.auditEvents.list(world.organizationId, {}, { page: 1, limit: 1 })).total
    const other = await world.otherOrganization()
    await failureOf(other.useCases.members.update.execute(other.admin, other.admin.memberId, { role: 'staff' }), ConflictError)
    expect((await world.repositories.auditEvents.list(other.organizationId, { action: 'update' }, { page: 1, limit: 1 })).total).toBe(0)
    expect((await world.repositories.auditEvents.list(world.organizationId, {}, { page: 1, limit: 1 })).total).toBe(before)
  })
})
