import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Repositories } from '../../../src/application/ports/repositories'
import { ConflictError } from '../../../src/domain/errors'
import type { Invitation } from '../../../src/domain/members/invitation'
import type { Member } from '../../../src/domain/members/member'
import type { StoredEmailSettings } from '../../../src/domain/messaging/email'
import type { ClaimedOutboxMessage, OutboxMessage } from '../../../src/domain/messaging/outbox'
import { FIRST_REFERENCE_NUMBER } from '../../../src/domain/needs/need'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { Partner } from '../../../src/domain/partners/partner'
import { aMember, anOrganization, aPartner } from '../../support/builders'
import { ascendingIds, ids, minute, presentKeys } from './contract-support'
import type { RepositoryFixture } from './repository-contract'

export interface MembersSettingsOutboxHelpers {
  read(): Repositories
  write<T>(work: (r: Repositories) => Promise<T>): Promise<T>
  anOrganizationWithPartner(overrides?: Partial<Organization>): Promise<{ organization: Organization; partner: Partner }>
  aMemberOf(organizationId: string, overrides?: Partial<Member>): Promise<Member>
  /** A fresh, empty store of the same adapter: the outbox is read across organizations, so its tests need one each. */
  make(): Promise<RepositoryFixture>
}

/** The error a promise rejects with; fails the test when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection, but the promise resolved')
}

const realTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A short code of six capitals, unique enough for one suite run. */
function aShortCode(): string {
  return Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('')
}

function anInvitation(overrides: Partial<Invitation> & Pick<Invitation, 'organizationId' | 'memberId'>): Invitation {
  return {
    id: randomUUID(),
    tokenDigest: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
    createdAt: minute(0),
    expiresAt: minute(7 * 24 * 60),
    ...overrides,
  }
}

function someEmailSettings(overrides: Partial<StoredEmailSettings> & Pick<StoredEmailSettings, 'organizationId'>): StoredEmailSettings {
  return {
    provider: 'postmark',
    sealedApiKey: `v1.${randomUUID()}.sealed`,
    apiKeyLast4: 'a1b2',
    fromEmail: 'help@example.org',
    updatedAt: minute(0),
    ...overrides,
  }
}

/** A pending email, due at minute 0 unless told. */
/** A pending email of `organizationId`, due at minute 0; the webhook contract builds its deliveries on it. */
export function aMessage(overrides: Partial<OutboxMessage> & Pick<OutboxMessage, 'organizationId'>): OutboxMessage {
  return {
    id: randomUUID(),
    payload: { channel: 'email', email: { to: 'ana@example.org', subject: 'You are invited', text: 'Choose your password: https://x/accept-invite?token=t' } },
    status: 'pending',
    attempts: 0,
    nextAttemptAt: minute(0),
    createdAt: minute(0),
    ...overrides,
  }
}

const every = { page: 1, limit: 100 }

/** Issue 4's part of the repository contract: organization settings, members, invitations, email settings, outbox. */
export function describeMembersSettingsOutboxContract({ read, write, anOrganizationWithPartner, aMemberOf, make }: MembersSettingsOutboxHelpers): void {
  describe('issue 4', () => {
    describe('organization update', () => {
      test('saves name, slug, short code, concurrency and registration status, keeping createdAt and the need sequence', async () => {
        const { organization } = await anOrganizationWithPartner({ createdAt: minute(1) })
        expect(await write(async (r) => (await r.organizations.takeNextNeedReference(organization.id))!.number)).toBe(FIRST_REFERENCE_NUMBER)
        const shortCode = aShortCode()
        const updated: Organization = {
          ...organization,
          name: 'Renamed Food Bank',
          slug: `renamed-${organization.id.slice(0, 8)}`,
          shortCode,
          maxConcurrency: 9,
          tcrStatus: 'APPROVED',
        }

        await write((r) => r.organizations.update({ ...updated, createdAt: minute(99) }))

        expect(await read().organizations.findById(organization.id)).toEqual(updated)
        expect(await read().organizations.findBySlug(updated.slug)).toEqual(updated)
        expect(await read().organizations.findByShortCode(shortCode)).toEqual(updated)
        expect(await read().organizations.findBySlug(organization.slug)).toBeUndefined()
        expect(await write(async (r) => (await r.organizations.takeNextNeedReference(organization.id))!.number)).toBe(FIRST_REFERENCE_NUMBER + 1)
      })

      test('clears the short code and registration status left out or given as undefined', async () => {
        const shortCode = aShortCode()
        const { organization } = await anOrganizationWithPartner({ shortCode, tcrStatus: 'PENDING' })
        const { shortCode: _shortCode, ...withoutShortCode } = organization

        await write((r) => r.organizations.update({ ...withoutShortCode, tcrStatus: undefined }))

        const found = await read().organizations.findById(organization.id)
        const { tcrStatus: _tcrStatus, ...expected } = withoutShortCode
        expect(found).toEqual(expected)
        expect(presentKeys(found, ['shortCode', 'tcrStatus', 'phoneNumber'])).toEqual([])
        expect(await read().organizations.findByShortCode(shortCode)).toBeUndefined()
      })

      test('replaces the origin lists, and clears those left out or given as undefined', async () => {
        const { organization } = await anOrganizationWithPartner({ appOrigins: ['https://staff.example.org'], formOrigins: ['https://pantry.example.net'] })
        const replaced = { ...organization, appOrigins: ['https://a.example.org', 'https://b.example.org'] }
        await write((r) => r.organizations.update(replaced))
        expect(await read().organizations.findById(organization.id)).toEqual(replaced)

        await write((r) => r.organizations.update({ ...replaced, appOrigins: undefined, formOrigins: undefined }))
        const found = await read().organizations.findById(organization.id)
        expect(presentKeys(found, ['appOrigins', 'formOrigins'])).toEqual([])
      })

      test('an organization keeping its own slug and short code is no conflict', async () => {
        const { organization } = await anOrganizationWithPartner({ shortCode: aShortCode() })

        await write((r) => r.organizations.update({ ...organization, name: 'Same slug, same code' }))

        expect(await read().organizations.findById(organization.id)).toEqual({ ...organization, name: 'Same slug, same code' })
      })

      test('several organizations without a short code are no conflict', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()

        await write(async (r) => {
          await r.organizations.update({ ...a, name: 'A' })
          await r.organizations.update({ ...b, name: 'B' })
        })

        expect((await read().organizations.findById(a.id))?.name).toBe('A')
        expect((await read().organizations.findById(b.id))?.name).toBe('B')
      })

      test('a slug taken by another organization is a ConflictError, and the transaction keeps nothing', async () => {
        const { organization: taken } = await anOrganizationWithPartner()
        const { organization } = await anOrganizationWithPartner()
        const bystander = aMember({ organizationId: organization.id })

        const error = await rejectionOf(
          write(async (r) => {
            await r.members.insert(bystander)
            await r.organizations.update({ ...organization, name: 'Never saved', slug: taken.slug })
          }),
        )

        expect(error).toBeInstanceOf(ConflictError)
        expect((error as ConflictError).message).toMatch(/slug/i)
        expect(await read().organizations.findById(organization.id)).toEqual(organization)
        expect(await read().organizations.findBySlug(taken.slug)).toEqual(taken)
        expect(await read().members.findById(organization.id, bystander.id)).toBeUndefined()
      })

      test('a short code taken by another organization is a ConflictError', async () => {
        const { organization: taken } = await anOrganizationWithPartner({ shortCode: aShortCode() })
        const { organization } = await anOrganizationWithPartner()

        const error = await rejectionOf(write((r) => r.organizations.update({ ...organization, shortCode: taken.shortCode })))

        expect(error).toBeInstanceOf(ConflictError)
        expect((error as ConflictError).message).toMatch(/short code/i)
        expect(await read().organizations.findById(organization.id)).toEqual(organization)
        expect(await read().organizations.findByShortCode(taken.shortCode!)).toEqual(taken)
      })

      test('updating an unknown organization creates none', async () => {
        const ghost = anOrganization()
        await write((r) => r.organizations.update(ghost))

        expect(await read().organizations.findById(ghost.id)).toBeUndefined()
        expect(await read().organizations.findBySlug(ghost.slug)).toBeUndefined()
      })
    })

    describe('member insert and lists', () => {
      test('an email already in the organization is a ConflictError, and the transaction keeps nothing', async () => {
        const { organization } = await anOrganizationWithPartner()
        const first = await aMemberOf(organization.id)
        const bystander = aMember({ organizationId: organization.id })
        const second = aMember({ organizationId: organization.id, email: first.email, role: 'org_admin' })

        const error = await rejectionOf(
          write(async (r) => {
            await r.members.insert(bystander)
            await r.members.insert(second)
          }),
        )

        expect(error).toBeInstanceOf(ConflictError)
        expect((error as ConflictError).message).toMatch(/email/i)
        expect(await read().members.findAllByEmail(first.email)).toEqual([first])
        expect(await read().members.findById(organization.id, second.id)).toBeUndefined()
        expect(await read().members.findById(organization.id, bystander.id)).toBeUndefined()
      })

      test('the same email in another organization is no conflict', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const inA = await aMemberOf(a.id)

        const inB = aMember({ organizationId: b.id, email: inA.email })
        await write((r) => r.members.insert(inB))

        expect(await read().members.findByEmail(b.id, inA.email)).toEqual(inB)
        expect(await read().members.findByEmail(a.id, inA.email)).toEqual(inA)
      })

      /** An organization with two partners and members spread over them, plus a foreign member. */
      async function memberWorld() {
        const { organization, partner: p1 } = await anOrganizationWithPartner()
        const p2 = aPartner({ organizationId: organization.id })
        await write((r) => r.partners.insert(p2))
        const org = organization.id
        const [tieLow, tieHigh] = ascendingIds(2) as [string, string]
        const m1 = aMember({ organizationId: org, role: 'org_admin', createdAt: minute(1) })
        const m2 = aMember({ organizationId: org, role: 'partner_agent', partnerId: p1.id, createdAt: minute(2) })
        const m3 = aMember({ id: tieLow, organizationId: org, role: 'partner_agent', partnerId: p2.id, createdAt: minute(3) })
        const m4 = aMember({ id: tieHigh, organizationId: org, role: 'partner_admin', partnerId: p1.id, createdAt: minute(3) })
        const m5 = aMember({ organizationId: org, role: 'staff', fullName: 'Newest', createdAt: minute(4) })
        // Oldest first, so an adapter answering in insertion order fails.
        await write(async (r) => {
          for (const member of [m1, m2, m3, m4, m5]) await r.members.insert(member)
        })
        const { organization: foreignOrg, partner: foreignPartner } = await anOrganizationWithPartner()
        const foreign = await aMemberOf(foreignOrg.id, { role: 'partner_agent', partnerId: foreignPartner.id, createdAt: minute(9) })
        return { org, p1, p2, m1, m2, m3, m4, m5, foreign }
      }

      test('lists the organization’s members newest first, id as tie-break, absent fields absent', async () => {
        const w = await memberWorld()

        const listed = await read().members.list(w.org, {}, every)
        expect(listed).toEqual({ items: [w.m5, w.m4, w.m3, w.m2, w.m1], total: 5 })
        expect(presentKeys(listed.items[0], ['partnerId', 'phone', 'passwordHash'])).toEqual([])
        expect(presentKeys(listed.items[4], ['fullName', 'partnerId', 'phone', 'passwordHash'])).toEqual([])
      })

      test('narrows the list to one partner’s members, never another organization’s', async () => {
        const w = await memberWorld()

        expect(await read().members.list(w.org, { partnerId: w.p1.id }, every)).toEqual({ items: [w.m4, w.m2], total: 2 })
        expect(await read().members.list(w.org, { partnerId: w.p2.id }, every)).toEqual({ items: [w.m3], total: 1 })
        expect(await read().members.list(w.org, { partnerId: w.foreign.partnerId }, every)).toEqual({ items: [], total: 0 })
        expect(await read().members.list(w.foreign.organizationId, {}, every)).toEqual({ items: [w.foreign], total: 1 })
      })

      test('pages the member list, total counting every match', async () => {
        const w = await memberWorld()
        const page = (n: number) => read().members.list(w.org, {}, { page: n, limit: 2 })

        expect(await page(1)).toEqual({ items: [w.m5, w.m4], total: 5 })
        expect(await page(2)).toEqual({ items: [w.m3, w.m2], total: 5 })
        expect(await page(3)).toEqual({ items: [w.m1], total: 5 })
        expect(await page(4)).toEqual({ items: [], total: 5 })
        expect(await read().members.list(w.org, { partnerId: w.p1.id }, { page: 2, limit: 1 })).toEqual({ items: [w.m2], total: 2 })
      })

      test('counts an organization’s members of one role', async () => {
        const w = await memberWorld()

        expect(await read().members.countSigningInByRole(w.org, 'partner_agent')).toBe(2)
        expect(await read().members.countSigningInByRole(w.org, 'org_admin')).toBe(1)
        expect(await read().members.countSigningInByRole(w.org, 'volunteer')).toBe(0)
        expect(await read().members.countSigningInByRole(w.foreign.organizationId, 'partner_agent')).toBe(1)
        expect(await read().members.countSigningInByRole(w.foreign.organizationId, 'org_admin')).toBe(0)
        // A role change is counted at once.
        await write((r) => r.members.update({ ...w.m5, role: 'org_admin' }))
        expect(await read().members.countSigningInByRole(w.org, 'org_admin')).toBe(2)
        expect(await read().members.countSigningInByRole(w.org, 'staff')).toBe(0)
        // A deactivated member is not counted, an invited one not yet.
        await write((r) => r.members.update({ ...w.m5, role: 'org_admin', deactivatedAt: minute(9) }))
        expect(await read().members.countSigningInByRole(w.org, 'org_admin')).toBe(1)
      })

      test('keeps a member’s language and the notification kinds it chose, and clears them', async () => {
        const w = await memberWorld()
        const choosing = { ...w.m3, language: 'es' as const, notifications: { newNeeds: true, dailyDigest: false } }
        await write((r) => r.members.update(choosing))
        expect(await read().members.findById(w.org, w.m3.id)).toEqual(choosing)
        await write((r) => r.members.update(w.m3))
        expect(await read().members.findById(w.org, w.m3.id)).toEqual(w.m3)
      })

      test('keeps a deactivation, lists members by whether they are active, and clears it on reactivation', async () => {
        const w = await memberWorld()
        const deactivated = { ...w.m2, deactivatedAt: minute(9) }
        await write((r) => r.members.update(deactivated))

        expect(await read().members.findById(w.org, w.m2.id)).toEqual(deactivated)
        expect(await read().members.list(w.org, { active: false }, { page: 1, limit: 10 })).toEqual({ items: [deactivated], total: 1 })
        expect((await read().members.list(w.org, { active: true }, { page: 1, limit: 10 })).items.map((m) => m.id)).toEqual([w.m5.id, w.m4.id, w.m3.id, w.m1.id])
        expect(await read().members.list(w.org, { partnerId: w.p1.id, active: false }, { page: 1, limit: 10 })).toEqual({ items: [deactivated], total: 1 })

        await write((r) => r.members.update(w.m2))
        expect(await read().members.findById(w.org, w.m2.id)).toEqual(w.m2)
        expect((await read().members.list(w.org, { active: false }, { page: 1, limit: 10 })).total).toBe(0)
      })
    })

    describe('invitations', () => {
      async function anInvitee() {
        const { organization } = await anOrganizationWithPartner()
        return aMemberOf(organization.id, { isConfirmed: false })
      }

      test('finds an invitation by its digest, usedAt absent until used', async () => {
        const member = await anInvitee()
        const invitation = anInvitation({ organizationId: member.organizationId, memberId: member.id, createdAt: minute(2), expiresAt: minute(3 + 7 * 24 * 60) })
        await write((r) => r.invitations.insert(invitation))

        const found = await read().invitations.findByDigest(invitation.tokenDigest)
        expect(found).toEqual(invitation)
        expect(presentKeys(found, ['usedAt', 'purpose'])).toEqual([])
        expect(await read().invitations.findByDigest(randomUUID())).toBeUndefined()
      })

      test('keeps what a password-reset link is for', async () => {
        const member = await anInvitee()
        const reset = anInvitation({ organizationId: member.organizationId, memberId: member.id, purpose: 'password_reset' })
        await write((r) => r.invitations.insert(reset))

        expect(await read().invitations.findByDigest(reset.tokenDigest)).toEqual(reset)
      })

      test('keeps a usedAt given on insert', async () => {
        const member = await anInvitee()
        const invitation = anInvitation({ organizationId: member.organizationId, memberId: member.id, usedAt: minute(5) })
        await write((r) => r.invitations.insert(invitation))

        expect(await read().invitations.findByDigest(invitation.tokenDigest)).toEqual(invitation)
        expect(await write((r) => r.invitations.markUsed(invitation.id, minute(6)))).toBe(false)
      })

      test('voids the unused links of one member only, keeping when the used ones were used', async () => {
        const member = await anInvitee()
        const other = await anInvitee()
        const used = anInvitation({ organizationId: member.organizationId, memberId: member.id })
        const pending = anInvitation({ organizationId: member.organizationId, memberId: member.id, purpose: 'password_reset' })
        const othersPending = anInvitation({ organizationId: other.organizationId, memberId: other.id })
        await write(async (r) => {
          for (const i of [used, pending, othersPending]) await r.invitations.insert(i)
          await r.invitations.markUsed(used.id, minute(10))
        })

        await write((r) => r.invitations.voidUnused(member.organizationId, member.id, minute(20)))

        expect(await read().invitations.findByDigest(used.tokenDigest)).toEqual({ ...used, usedAt: minute(10) })
        expect(await read().invitations.findByDigest(pending.tokenDigest)).toEqual({ ...pending, usedAt: minute(20) })
        expect(await read().invitations.findByDigest(othersPending.tokenDigest)).toEqual(othersPending)
        expect(await write((r) => r.invitations.markUsed(pending.id, minute(21)))).toBe(false)
      })

      test('marks an invitation used once: true the first time, false after, the first time kept', async () => {
        const member = await anInvitee()
        const invitation = anInvitation({ organizationId: member.organizationId, memberId: member.id })
        const other = anInvitation({ organizationId: member.organizationId, memberId: member.id })
        await write(async (r) => {
          await r.invitations.insert(invitation)
          await r.invitations.insert(other)
        })

        expect(await write((r) => r.invitations.markUsed(invitation.id, minute(10)))).toBe(true)
        expect(await write((r) => r.invitations.markUsed(invitation.id, minute(11)))).toBe(false)
        expect(await write(async (r) => [await r.invitations.markUsed(other.id, minute(12)), await r.invitations.markUsed(other.id, minute(13))])).toEqual([true, false])

        expect(await read().invitations.findByDigest(invitation.tokenDigest)).toEqual({ ...invitation, usedAt: minute(10) })
        expect(await read().invitations.findByDigest(other.tokenDigest)).toEqual({ ...other, usedAt: minute(12) })
        expect(await write((r) => r.invitations.markUsed(randomUUID(), minute(14)))).toBe(false)
      })

      test('a use in a transaction that rolls back leaves the invitation usable', async () => {
        const member = await anInvitee()
        const invitation = anInvitation({ organizationId: member.organizationId, memberId: member.id })
        await write((r) => r.invitations.insert(invitation))
        const failure = new Error('password hashing failed')

        const outcome = write(async (r) => {
          expect(await r.invitations.markUsed(invitation.id, minute(20))).toBe(true)
          await realTimer(2)
          throw failure
        })
        await expect(outcome).rejects.toBe(failure)

        expect(presentKeys(await read().invitations.findByDigest(invitation.tokenDigest), ['usedAt'])).toEqual([])
        expect(await write((r) => r.invitations.markUsed(invitation.id, minute(21)))).toBe(true)
      })
    })

    describe('email settings', () => {
      test('answers undefined until saved, then the settings, fromName absent when absent', async () => {
        const { organization } = await anOrganizationWithPartner()
        expect(await read().emailSettings.find(organization.id)).toBeUndefined()

        const settings = someEmailSettings({ organizationId: organization.id, updatedAt: minute(3) })
        await write((r) => r.emailSettings.save(settings))

        const found = await read().emailSettings.find(organization.id)
        expect(found).toEqual(settings)
        expect(presentKeys(found, ['fromName'])).toEqual([])
      })

      test('a second save replaces the first, clearing a fromName left out', async () => {
        const { organization } = await anOrganizationWithPartner()
        const first = someEmailSettings({ organizationId: organization.id, provider: 'smtp', fromName: 'Food Bank', updatedAt: minute(1) })
        await write((r) => r.emailSettings.save(first))
        expect(await read().emailSettings.find(organization.id)).toEqual(first)

        const second = someEmailSettings({ organizationId: organization.id, provider: 'ses', apiKeyLast4: 'z9y8', fromEmail: 'noreply@example.org', updatedAt: minute(2) })
        await write((r) => r.emailSettings.save(second))

        const found = await read().emailSettings.find(organization.id)
        expect(found).toEqual(second)
        expect(presentKeys(found, ['fromName'])).toEqual([])
        const third = { ...second, fromName: 'Back again', updatedAt: minute(3) }
        await write((r) => r.emailSettings.save(third))
        expect(await read().emailSettings.find(organization.id)).toEqual(third)
      })

      test('keeps each organization’s settings apart', async () => {
        const { organization: a } = await anOrganizationWithPartner()
        const { organization: b } = await anOrganizationWithPartner()
        const ofA = someEmailSettings({ organizationId: a.id, fromName: 'A' })
        await write((r) => r.emailSettings.save(ofA))

        expect(await read().emailSettings.find(b.id)).toBeUndefined()
        const ofB = someEmailSettings({ organizationId: b.id, provider: 'sendgrid' })
        await write((r) => r.emailSettings.save(ofB))

        expect(await read().emailSettings.find(a.id)).toEqual(ofA)
        expect(await read().emailSettings.find(b.id)).toEqual(ofB)
      })

      test('a save in a transaction that rolls back keeps the earlier settings', async () => {
        const { organization } = await anOrganizationWithPartner()
        const kept = someEmailSettings({ organizationId: organization.id })
        await write((r) => r.emailSettings.save(kept))
        const failure = new Error('late failure')

        await expect(
          write(async (r) => {
            await r.emailSettings.save(someEmailSettings({ organizationId: organization.id, provider: 'smtp', fromName: 'Never' }))
            throw failure
          }),
        ).rejects.toBe(failure)

        expect(await read().emailSettings.find(organization.id)).toEqual(kept)
      })
    })

    // The outbox is read across organizations, so every test here gets an empty store of its own.
    describe('outbox', () => {
      let box: RepositoryFixture
      let org: string
      const boxRead = () => box.persistence.repositories
      const boxWrite = <T>(work: (r: Repositories) => Promise<T>): Promise<T> => box.persistence.unitOfWork.run(work)
      const found = (id: string) => boxRead().outbox.findById(id)

      async function anOrganizationInBox() {
        const organization = anOrganization()
        await boxWrite((r) => r.organizations.insert(organization))
        return organization.id
      }
      async function enqueue(...messages: OutboxMessage[]) {
        await boxWrite(async (r) => {
          for (const message of messages) await r.outbox.enqueue(message)
        })
      }
      const claim = (organizationId: string, now: Date, limit: number, lockedUntil: Date) =>
        boxWrite((r) => r.outbox.claimDue(organizationId, now, limit, lockedUntil))
      /** A message as a claim leaves it: sending until `lockedUntil`, its current attempt begun at `inFlightSince`. */
      const claimed = (message: OutboxMessage, lockedUntil: Date, inFlightSince: Date): ClaimedOutboxMessage => ({ ...message, status: 'sending', lockedUntil, inFlightSince })
      const sorted = (values: string[]) => [...values].sort()
      /** A message under a claim of `lockedUntil`, as a worker that died would leave it. */
      const underClaim = (organizationId: string, lockedUntil: Date, overrides: Partial<OutboxMessage> = {}) =>
        aMessage({ organizationId, status: 'sending', lockedUntil, inFlightSince: minute(0), ...overrides })

      beforeEach(async () => {
        box = await make()
        org = await anOrganizationInBox()
      })
      afterEach(async () => {
        await box.cleanup()
      })

      describe('backlog', () => {
        test('is empty with nothing waiting', async () => {
          expect(await boxRead().outbox.backlog()).toEqual({ pending: 0, sending: 0 })
        })

        test('counts pending and sending messages of every organization, and dates the oldest of them; sent and failed ones do not count', async () => {
          const other = await anOrganizationInBox()
          await enqueue(
            aMessage({ organizationId: org, createdAt: minute(5) }),
            aMessage({ organizationId: other, createdAt: minute(3) }),
            underClaim(org, minute(30), { createdAt: minute(4) }),
            aMessage({ organizationId: org, status: 'sent', createdAt: minute(1), sentAt: minute(2) }),
            aMessage({ organizationId: other, status: 'failed', createdAt: minute(2) }),
          )
          expect(await boxRead().outbox.backlog()).toEqual({ pending: 2, sending: 1, oldestQueuedAt: minute(3) })
        })
      })

      describe('enqueue and findById', () => {
        test('keeps a message, absent fields absent', async () => {
          const message = aMessage({ organizationId: org, nextAttemptAt: minute(1), createdAt: minute(1) })
          await enqueue(message)

          const stored = await found(message.id)
          expect(stored).toEqual(message)
          expect(presentKeys(stored, ['lockedUntil', 'inFlightSince', 'lastError', 'providerMessageId', 'sentAt'])).toEqual([])
          expect(await found(randomUUID())).toBeUndefined()
        })

        test('keeps every optional field and a unicode payload', async () => {
          const sent = aMessage({
            organizationId: org,
            payload: { channel: 'email', email: { to: 'zoë@example.org', subject: 'Bienvenue — ✓', text: 'Ligne 1\nLigne 2 "quoted"' } },
            status: 'sent',
            attempts: 2,
            lockedUntil: minute(3),
            inFlightSince: minute(2),
            lastError: '503 Service Unavailable',
            providerMessageId: 'pm-123',
            sentAt: minute(4),
          })
          await enqueue(sent)

          expect(await found(sent.id)).toEqual(sent)
        })

        test('keeps an sms payload through enqueue, claim and outcome', async () => {
          const text = aMessage({
            organizationId: org,
            payload: {
              channel: 'sms',
              sms: { from: '+15550001111', to: '+15552223333', body: 'Votre colis est prêt ✓ — "porte 2"\nMerci 🙏', interactionId: randomUUID() },
            },
          })
          await enqueue(text)
          expect(await found(text.id)).toEqual(text)

          const [got] = await claim(org, minute(1), 10, minute(2))
          expect(got).toEqual(claimed(text, minute(2), minute(1)))
          expect(await boxWrite((r) => r.outbox.markSent(text.id, minute(2), minute(1.5), 'SM0123'))).toBe(true)

          expect(await found(text.id)).toEqual({ ...text, status: 'sent', sentAt: minute(1.5), providerMessageId: 'SM0123' })
        })
      })

      describe('organizationsWithDue', () => {
        test('lists each organization with due messages once: pending ones whose time has come, or lapsed claims', async () => {
          expect(await boxRead().outbox.organizationsWithDue(minute(100), 10)).toEqual([])
          const [withLapsed, dueExactlyNow, withFuture, withLive, withDone] = [
            await anOrganizationInBox(),
            await anOrganizationInBox(),
            await anOrganizationInBox(),
            await anOrganizationInBox(),
            await anOrganizationInBox(),
          ] as [string, string, string, string, string]
          await enqueue(
            aMessage({ organizationId: org, nextAttemptAt: minute(1) }),
            aMessage({ organizationId: org, nextAttemptAt: minute(2) }),
            underClaim(withLapsed, minute(4)),
            aMessage({ organizationId: dueExactlyNow, nextAttemptAt: minute(5) }),
            aMessage({ organizationId: withFuture, nextAttemptAt: minute(6) }),
            underClaim(withLive, minute(7)),
            aMessage({ organizationId: withDone, status: 'sent', nextAttemptAt: minute(0), sentAt: minute(1) }),
            aMessage({ organizationId: withDone, status: 'failed', attempts: 5, nextAttemptAt: minute(0), lastError: 'bounced' }),
          )

          expect(sorted(await boxRead().outbox.organizationsWithDue(minute(5), 10))).toEqual(sorted([org, withLapsed, dueExactlyNow]))
          expect(sorted(await boxRead().outbox.organizationsWithDue(minute(7), 10))).toEqual(sorted([org, withLapsed, dueExactlyNow, withFuture, withLive]))
        })

        test('answers at most limit distinct organizations', async () => {
          const others = [await anOrganizationInBox(), await anOrganizationInBox()]
          // The first organization has the three oldest messages: a limit on rows rather than organizations answers it alone.
          await enqueue(
            ...[0, 1, 2].map((n) => aMessage({ organizationId: org, nextAttemptAt: minute(n) })),
            ...others.map((organizationId) => aMessage({ organizationId, nextAttemptAt: minute(3) })),
          )

          const two = await boxRead().outbox.organizationsWithDue(minute(5), 2)
          expect(two).toHaveLength(2)
          expect(new Set(two).size).toBe(2)
          for (const id of two) expect([org, ...others]).toContain(id)
          expect(sorted(await boxRead().outbox.organizationsWithDue(minute(5), 3))).toEqual(sorted([org, ...others]))
        })
      })

      describe('countInFlight', () => {
        test('counts the organization’s messages under a live claim only', async () => {
          const other = await anOrganizationInBox()
          const live = underClaim(org, minute(10))
          await enqueue(
            live,
            underClaim(org, minute(6)),
            underClaim(org, minute(5)), // lapses at minute 5: no longer in flight then
            aMessage({ organizationId: org, nextAttemptAt: minute(0) }),
            aMessage({ organizationId: org, status: 'sent', lockedUntil: minute(10), sentAt: minute(1) }),
            aMessage({ organizationId: org, status: 'failed', lockedUntil: minute(10), lastError: 'bounced' }),
            underClaim(other, minute(10)),
          )

          expect(await boxRead().outbox.countInFlight(org, minute(4))).toBe(3)
          expect(await boxRead().outbox.countInFlight(org, minute(5))).toBe(2)
          expect(await boxRead().outbox.countInFlight(org, minute(6))).toBe(1)
          expect(await boxRead().outbox.countInFlight(org, minute(10))).toBe(0)
          expect(await boxRead().outbox.countInFlight(other, minute(5))).toBe(1)
          expect(await boxRead().outbox.countInFlight(randomUUID(), minute(5))).toBe(0)

          // A claim adds what it takes (the pending one and the lapsed one), an outcome takes one away.
          expect(await claim(org, minute(5), 10, minute(15))).toHaveLength(2)
          expect(await boxRead().outbox.countInFlight(org, minute(5))).toBe(4)
          expect(await boxWrite((r) => r.outbox.markSent(live.id, minute(10), minute(5), undefined))).toBe(true)
          expect(await boxRead().outbox.countInFlight(org, minute(5))).toBe(3)
        })
      })

      describe('claimDue', () => {
        test('claims the organization’s pending messages due by now, as sending, their attempt starting now; leaves the rest untouched', async () => {
          const early = aMessage({ organizationId: org, nextAttemptAt: minute(1) })
          const exactlyNow = aMessage({ organizationId: org, nextAttemptAt: minute(5) })
          const later = aMessage({ organizationId: org, nextAttemptAt: minute(6) })
          await enqueue(later, exactlyNow, early)

          const got = await claim(org, minute(5), 10, minute(6))

          expect(got).toEqual([claimed(early, minute(6), minute(5)), claimed(exactlyNow, minute(6), minute(5))])
          expect(await found(early.id)).toEqual(claimed(early, minute(6), minute(5)))
          expect(await found(exactlyNow.id)).toEqual(claimed(exactlyNow, minute(6), minute(5)))
          const untouched = await found(later.id)
          expect(untouched).toEqual(later)
          expect(presentKeys(untouched, ['lockedUntil', 'inFlightSince'])).toEqual([])
        })

        test('claims at most limit messages, oldest nextAttemptAt first, id as tie-break', async () => {
          const [low, high] = ascendingIds(2) as [string, string]
          const m3 = aMessage({ organizationId: org, nextAttemptAt: minute(3), createdAt: minute(0) })
          const m1 = aMessage({ organizationId: org, nextAttemptAt: minute(1), createdAt: minute(9) })
          const m2low = aMessage({ id: low, organizationId: org, nextAttemptAt: minute(2) })
          const m2high = aMessage({ id: high, organizationId: org, nextAttemptAt: minute(2) })
          const m4 = aMessage({ organizationId: org, nextAttemptAt: minute(4) })
          await enqueue(m4, m2high, m3, m2low, m1)
          const take = () => claim(org, minute(10), 2, minute(20))
          const asClaimed = (...messages: OutboxMessage[]) => messages.map((m) => claimed(m, minute(20), minute(10)))

          expect(await take()).toEqual(asClaimed(m1, m2low))
          expect(await take()).toEqual(asClaimed(m2high, m3))
          expect(await take()).toEqual(asClaimed(m4))
          expect(await take()).toEqual([])
        })

        test('claims only the organization named, however old another’s messages are', async () => {
          const other = await anOrganizationInBox()
          const theirs = aMessage({ organizationId: other, nextAttemptAt: minute(0) })
          const theirsLapsed = underClaim(other, minute(1))
          const mine = aMessage({ organizationId: org, nextAttemptAt: minute(2) })
          await enqueue(theirs, theirsLapsed, mine)

          expect(await claim(org, minute(5), 10, minute(6))).toEqual([claimed(mine, minute(6), minute(5))])
          expect(await found(theirs.id)).toEqual(theirs)
          expect(await found(theirsLapsed.id)).toEqual(theirsLapsed)
          expect(await claim(randomUUID(), minute(5), 10, minute(6))).toEqual([])
          expect(sorted(ids(await claim(other, minute(5), 10, minute(6))))).toEqual(sorted([theirs.id, theirsLapsed.id]))
        })

        test('a limit of zero or less claims nothing', async () => {
          const messages = [aMessage({ organizationId: org }), aMessage({ organizationId: org }), aMessage({ organizationId: org })]
          await enqueue(...messages)

          expect(await claim(org, minute(1), 0, minute(2))).toEqual([])
          expect(await claim(org, minute(1), -1, minute(2))).toEqual([])
          for (const message of messages) expect(await found(message.id)).toEqual(message)
        })

        test('answers nothing when nothing is due', async () => {
          const message = aMessage({ organizationId: org, nextAttemptAt: minute(30) })
          await enqueue(message)

          expect(await claim(org, minute(29), 10, minute(40))).toEqual([])
          expect(await found(message.id)).toEqual(message)
        })

        test('a lapsed claim is claimable again, keeping when its interrupted attempt began; a live one is not', async () => {
          const lapsed = underClaim(org, minute(4), { attempts: 1, nextAttemptAt: minute(0), inFlightSince: minute(2) })
          const lapsingNow = underClaim(org, minute(5), { nextAttemptAt: minute(1), inFlightSince: minute(3) })
          const live = underClaim(org, minute(6), { nextAttemptAt: minute(0), inFlightSince: minute(4) })
          await enqueue(live, lapsingNow, lapsed)

          const got = await claim(org, minute(5), 10, minute(15))

          expect(got).toEqual([claimed(lapsed, minute(15), minute(2)), claimed(lapsingNow, minute(15), minute(3))])
          expect(await found(lapsed.id)).toEqual(claimed(lapsed, minute(15), minute(2)))
          expect(await found(live.id)).toEqual(live)
          // Once its lease lapses, the live one comes back too.
          expect(await claim(org, minute(6), 10, minute(16))).toEqual([claimed(live, minute(16), minute(4))])
        })

        test('two claims in sequence never hand out one message while its lease holds; once it lapses it comes back with its first attempt’s time', async () => {
          const messages = ascendingIds(5).map((id, i) => aMessage({ id, organizationId: org, nextAttemptAt: minute(i) }))
          await enqueue(...[...messages].reverse())

          const first = await claim(org, minute(10), 3, minute(11))
          const second = await claim(org, minute(10.5), 10, minute(12))

          expect(first).toEqual(messages.slice(0, 3).map((m) => claimed(m, minute(11), minute(10))))
          expect(second).toEqual(messages.slice(3).map((m) => claimed(m, minute(12), minute(10.5))))
          expect(await claim(org, minute(10.9), 10, minute(13))).toEqual([])
          // The first worker died: its three come back after minute 11, the second's are still held.
          const retaken = await claim(org, minute(11), 10, minute(21))
          expect(retaken).toEqual(messages.slice(0, 3).map((m) => claimed(m, minute(21), minute(10))))
        })

        test('a sent or failed message is never claimed again', async () => {
          const toSend = aMessage({ organizationId: org })
          const toFail = aMessage({ organizationId: org })
          const storedSent = aMessage({ organizationId: org, status: 'sent', sentAt: minute(1) })
          const storedFailed = aMessage({ organizationId: org, status: 'failed', attempts: 5, lastError: 'bounced' })
          await enqueue(toSend, toFail, storedSent, storedFailed)
          expect(sorted(ids(await claim(org, minute(1), 10, minute(2))))).toEqual(sorted([toSend.id, toFail.id]))

          const outcomes = await boxWrite(async (r) => [
            await r.outbox.markSent(toSend.id, minute(2), minute(1.5), 'provider-1'),
            await r.outbox.markFailed(toFail.id, minute(2), 1, '550 mailbox unavailable'),
          ])

          expect(outcomes).toEqual([true, true])
          const muchLater = minute(60 * 24 * 365)
          expect(await claim(org, muchLater, 100, minute(60 * 24 * 366))).toEqual([])
          expect(await boxRead().outbox.organizationsWithDue(muchLater, 10)).toEqual([])
          expect(await boxRead().outbox.countInFlight(org, minute(1))).toBe(0)
          expect(await found(storedSent.id)).toEqual(storedSent)
          expect(await found(storedFailed.id)).toEqual(storedFailed)
        })

        test('a claim in a transaction that rolls back leaves its messages pending', async () => {
          const message = aMessage({ organizationId: org })
          await enqueue(message)
          const failure = new Error('worker crashed')

          await expect(
            boxWrite(async (r) => {
              expect(await r.outbox.claimDue(org, minute(1), 10, minute(2))).toHaveLength(1)
              throw failure
            }),
          ).rejects.toBe(failure)

          expect(await found(message.id)).toEqual(message)
          expect(await boxRead().outbox.countInFlight(org, minute(1))).toBe(0)
          expect(await claim(org, minute(1), 10, minute(2))).toEqual([claimed(message, minute(2), minute(1))])
        })

        test('changing the dates given to a claim afterwards changes nothing stored', async () => {
          const message = aMessage({ organizationId: org })
          await enqueue(message)
          const now = minute(1)
          const lockedUntil = minute(2)

          await claim(org, now, 10, lockedUntil)
          now.setTime(minute(50).getTime())
          lockedUntil.setTime(minute(60).getTime())

          expect(await found(message.id)).toEqual(claimed(message, minute(2), minute(1)))
          expect(await boxRead().outbox.countInFlight(org, minute(3))).toBe(0)
        })
      })

      describe('outcomes', () => {
        test('markSent records the time and provider id, dropping the claim and the attempt time', async () => {
          const withId = aMessage({ organizationId: org })
          const withoutId = aMessage({ organizationId: org, nextAttemptAt: minute(0.5) })
          await enqueue(withId, withoutId)
          await claim(org, minute(1), 10, minute(2))

          const outcomes = await boxWrite(async (r) => [
            await r.outbox.markSent(withId.id, minute(2), minute(1.5), 'provider-42'),
            await r.outbox.markSent(withoutId.id, minute(2), minute(1.75), undefined),
          ])

          expect(outcomes).toEqual([true, true])
          const sent = await found(withId.id)
          expect(sent).toEqual({ ...withId, status: 'sent', sentAt: minute(1.5), providerMessageId: 'provider-42' })
          expect(presentKeys(sent, ['lockedUntil', 'inFlightSince', 'lastError'])).toEqual([])
          const sentWithoutId = await found(withoutId.id)
          expect(sentWithoutId).toEqual({ ...withoutId, status: 'sent', sentAt: minute(1.75) })
          expect(presentKeys(sentWithoutId, ['lockedUntil', 'inFlightSince', 'lastError', 'providerMessageId'])).toEqual([])
        })

        test('reschedule puts a message back to pending with its attempts, next time and error; its next claim is a new attempt', async () => {
          const message = aMessage({ organizationId: org })
          await enqueue(message)
          await claim(org, minute(0), 10, minute(1))

          expect(await boxWrite((r) => r.outbox.reschedule(message.id, minute(1), 1, minute(3), '503 try later'))).toBe(true)

          const rescheduled = await found(message.id)
          const expected: OutboxMessage = { ...message, status: 'pending', attempts: 1, nextAttemptAt: minute(3), lastError: '503 try later' }
          expect(rescheduled).toEqual(expected)
          expect(presentKeys(rescheduled, ['lockedUntil', 'inFlightSince', 'sentAt', 'providerMessageId'])).toEqual([])
          expect(await boxRead().outbox.countInFlight(org, minute(0.5))).toBe(0)
          expect(await claim(org, minute(2.9), 10, minute(4))).toEqual([])
          expect(await claim(org, minute(3), 10, minute(4))).toEqual([claimed(expected, minute(4), minute(3))])
        })

        test('markFailed records the attempts and error for good', async () => {
          const message = aMessage({ organizationId: org, attempts: 4, nextAttemptAt: minute(2) })
          await enqueue(message)
          await claim(org, minute(2), 10, minute(3))

          expect(await boxWrite((r) => r.outbox.markFailed(message.id, minute(3), 5, '421 too many tries'))).toBe(true)

          const failed = await found(message.id)
          expect(failed).toEqual({ ...message, status: 'failed', attempts: 5, lastError: '421 too many tries' })
          expect(presentKeys(failed, ['lockedUntil', 'inFlightSince', 'sentAt', 'providerMessageId'])).toEqual([])
        })

        test('an outcome under another fence, of a message no claim holds or of no message answers false and changes nothing', async () => {
          const message = aMessage({ organizationId: org })
          // Not due, and pending although it carries the same lockedUntil: only a claim is a fence.
          const pending = aMessage({ organizationId: org, nextAttemptAt: minute(30), lockedUntil: minute(2) })
          await enqueue(message, pending)
          const [held] = await claim(org, minute(1), 10, minute(2))
          const offBy = (ms: number) => new Date(minute(2).getTime() + ms)

          const outcomes = await boxWrite(async (r) => [
            await r.outbox.markSent(message.id, offBy(-1), minute(1.5), 'provider-1'),
            await r.outbox.reschedule(message.id, offBy(1), 1, minute(5), 'late'),
            await r.outbox.markFailed(message.id, minute(1), 1, 'late'),
            await r.outbox.markSent(pending.id, minute(2), minute(1.5), 'provider-2'),
            await r.outbox.reschedule(pending.id, minute(2), 1, minute(5), 'late'),
            await r.outbox.markFailed(pending.id, minute(2), 1, 'late'),
            await r.outbox.markSent(randomUUID(), minute(2), minute(1.5), 'provider-3'),
          ])

          expect(outcomes).toEqual([false, false, false, false, false, false, false])
          expect(await found(message.id)).toEqual(held)
          expect(await found(pending.id)).toEqual(pending)
          // The claim's own fence applies, once.
          expect(await boxWrite((r) => r.outbox.markSent(message.id, minute(2), minute(1.5), 'provider-1'))).toBe(true)
          expect(await boxWrite((r) => r.outbox.markFailed(message.id, minute(2), 1, 'again'))).toBe(false)
          expect(await boxWrite((r) => r.outbox.reschedule(message.id, minute(2), 1, minute(9), 'again'))).toBe(false)
          expect(await boxWrite((r) => r.outbox.markSent(message.id, minute(2), minute(8), 'provider-9'))).toBe(false)
          expect(await found(message.id)).toEqual({ ...message, status: 'sent', sentAt: minute(1.5), providerMessageId: 'provider-1' })
        })

        test('after a lapsed claim is taken again, the first worker’s late outcomes are refused and the second’s applies', async () => {
          const message = aMessage({ organizationId: org })
          await enqueue(message)
          const [first] = await claim(org, minute(1), 10, minute(2))
          const [second] = await claim(org, minute(3), 10, minute(4))
          expect(second).toEqual(claimed(message, minute(4), minute(1)))

          const late = await boxWrite(async (r) => [
            await r.outbox.markSent(message.id, first!.lockedUntil!, minute(3.5), 'from-first'),
            await r.outbox.reschedule(message.id, first!.lockedUntil!, 1, minute(10), 'first timed out'),
            await r.outbox.markFailed(message.id, first!.lockedUntil!, 1, 'first gave up'),
          ])

          expect(late).toEqual([false, false, false])
          expect(await found(message.id)).toEqual(second)
          expect(await boxRead().outbox.countInFlight(org, minute(3.5))).toBe(1)
          expect(await boxWrite((r) => r.outbox.markSent(message.id, second!.lockedUntil!, minute(3.6), 'from-second'))).toBe(true)
          expect(await found(message.id)).toEqual({ ...message, status: 'sent', sentAt: minute(3.6), providerMessageId: 'from-second' })
        })

        test('a late outcome after the next worker rescheduled changes nothing', async () => {
          const message = aMessage({ organizationId: org })
          await enqueue(message)
          const [first] = await claim(org, minute(1), 10, minute(2))
          const [second] = await claim(org, minute(3), 10, minute(4))
          expect(await boxWrite((r) => r.outbox.reschedule(message.id, second!.lockedUntil!, 1, minute(5), '503'))).toBe(true)
          const rescheduled: OutboxMessage = { ...message, attempts: 1, nextAttemptAt: minute(5), lastError: '503' }

          expect(await boxWrite((r) => r.outbox.markSent(message.id, first!.lockedUntil!, minute(4.5), 'from-first'))).toBe(false)
          expect(await boxWrite((r) => r.outbox.markFailed(message.id, second!.lockedUntil!, 2, 'twice'))).toBe(false)

          expect(await found(message.id)).toEqual(rescheduled)
          expect(await claim(org, minute(5), 10, minute(6))).toEqual([claimed(rescheduled, minute(6), minute(5))])
        })

        test('an outcome in a transaction that rolls back leaves the claim holding', async () => {
          const message = aMessage({ organizationId: org })
          await enqueue(message)
          const [held] = await claim(org, minute(1), 10, minute(2))
          const failure = new Error('interaction update failed')

          await expect(
            boxWrite(async (r) => {
              expect(await r.outbox.markSent(message.id, minute(2), minute(1.5), 'provider-1')).toBe(true)
              await realTimer(2)
              throw failure
            }),
          ).rejects.toBe(failure)

          expect(await found(message.id)).toEqual(held)
          expect(await boxWrite((r) => r.outbox.markSent(message.id, minute(2), minute(1.6), 'provider-1'))).toBe(true)
        })
      })

      test('unit of work: a message enqueued by work that fails after an await is never kept, so never sent', async () => {
        const member = aMember({ organizationId: org, isConfirmed: false })
        const message = aMessage({ organizationId: org, payload: { channel: 'email', email: { to: member.email, subject: 'Invited', text: 'link' } } })
        const failure = new Error('invitation insert failed')

        const outcome = boxWrite(async (r) => {
          await r.members.insert(member)
          await r.outbox.enqueue(message)
          await realTimer(5)
          throw failure
        })

        await expect(outcome).rejects.toBe(failure)
        expect(await found(message.id)).toBeUndefined()
        expect(await boxRead().members.findById(org, member.id)).toBeUndefined()
        expect(await boxRead().outbox.organizationsWithDue(minute(60), 10)).toEqual([])
        expect(await claim(org, minute(60), 100, minute(61))).toEqual([])
      })
    })
  })
}
