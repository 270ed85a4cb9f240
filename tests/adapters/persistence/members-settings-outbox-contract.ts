import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { Repositories } from '../../../src/application/ports/repositories'
import { ConflictError } from '../../../src/domain/errors'
import type { Invitation } from '../../../src/domain/members/invitation'
import type { Member } from '../../../src/domain/members/member'
import type { StoredEmailSettings } from '../../../src/domain/messaging/email'
import type { OutboxMessage } from '../../../src/domain/messaging/outbox'
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
function aMessage(overrides: Partial<OutboxMessage> & Pick<OutboxMessage, 'organizationId'>): OutboxMessage {
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
        expect(await write((r) => r.organizations.takeNextNeedNumber(organization.id))).toBe(FIRST_REFERENCE_NUMBER)
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
        expect(await write((r) => r.organizations.takeNextNeedNumber(organization.id))).toBe(FIRST_REFERENCE_NUMBER + 1)
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

        expect(await read().members.countConfirmedByRole(w.org, 'partner_agent')).toBe(2)
        expect(await read().members.countConfirmedByRole(w.org, 'org_admin')).toBe(1)
        expect(await read().members.countConfirmedByRole(w.org, 'volunteer')).toBe(0)
        expect(await read().members.countConfirmedByRole(w.foreign.organizationId, 'partner_agent')).toBe(1)
        expect(await read().members.countConfirmedByRole(w.foreign.organizationId, 'org_admin')).toBe(0)
        // A role change is counted at once.
        await write((r) => r.members.update({ ...w.m5, role: 'org_admin' }))
        expect(await read().members.countConfirmedByRole(w.org, 'org_admin')).toBe(2)
        expect(await read().members.countConfirmedByRole(w.org, 'staff')).toBe(0)
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
        expect(presentKeys(found, ['usedAt'])).toEqual([])
        expect(await read().invitations.findByDigest(randomUUID())).toBeUndefined()
      })

      test('keeps a usedAt given on insert', async () => {
        const member = await anInvitee()
        const invitation = anInvitation({ organizationId: member.organizationId, memberId: member.id, usedAt: minute(5) })
        await write((r) => r.invitations.insert(invitation))

        expect(await read().invitations.findByDigest(invitation.tokenDigest)).toEqual(invitation)
        expect(await write((r) => r.invitations.markUsed(invitation.id, minute(6)))).toBe(false)
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
      const claim = (now: Date, limit: number, lockedUntil: Date) => boxWrite((r) => r.outbox.claimDue(now, limit, lockedUntil))
      const claimed = (message: OutboxMessage, lockedUntil: Date): OutboxMessage => ({ ...message, status: 'sending', lockedUntil })

      beforeEach(async () => {
        box = await make()
        org = await anOrganizationInBox()
      })
      afterEach(async () => {
        await box.cleanup()
      })

      test('keeps a message through enqueue and findById, absent fields absent', async () => {
        const message = aMessage({ organizationId: org, nextAttemptAt: minute(1), createdAt: minute(1) })
        await enqueue(message)

        const found = await boxRead().outbox.findById(message.id)
        expect(found).toEqual(message)
        expect(presentKeys(found, ['lockedUntil', 'lastError', 'providerMessageId', 'sentAt'])).toEqual([])
        expect(await boxRead().outbox.findById(randomUUID())).toBeUndefined()
      })

      test('keeps every optional field and a unicode payload', async () => {
        const sent = aMessage({
          organizationId: org,
          payload: { channel: 'email', email: { to: 'zoë@example.org', subject: 'Bienvenue — ✓', text: 'Ligne 1\nLigne 2 "quoted"' } },
          status: 'sent',
          attempts: 2,
          lockedUntil: minute(3),
          lastError: '503 Service Unavailable',
          providerMessageId: 'pm-123',
          sentAt: minute(4),
        })
        await enqueue(sent)

        expect(await boxRead().outbox.findById(sent.id)).toEqual(sent)
      })

      test('claims the pending messages due by now, leaves the rest untouched, and answers them as sending', async () => {
        const early = aMessage({ organizationId: org, nextAttemptAt: minute(1) })
        const exactlyNow = aMessage({ organizationId: org, nextAttemptAt: minute(5) })
        const later = aMessage({ organizationId: org, nextAttemptAt: minute(6) })
        await enqueue(later, exactlyNow, early)

        const got = await claim(minute(5), 10, minute(6))

        expect(got).toEqual([claimed(early, minute(6)), claimed(exactlyNow, minute(6))])
        expect(await boxRead().outbox.findById(early.id)).toEqual(claimed(early, minute(6)))
        expect(await boxRead().outbox.findById(exactlyNow.id)).toEqual(claimed(exactlyNow, minute(6)))
        const untouched = await boxRead().outbox.findById(later.id)
        expect(untouched).toEqual(later)
        expect(presentKeys(untouched, ['lockedUntil'])).toEqual([])
      })

      test('claims at most limit messages, oldest nextAttemptAt first, across organizations', async () => {
        const other = await anOrganizationInBox()
        const [low, high] = ascendingIds(2) as [string, string]
        const m3 = aMessage({ organizationId: org, nextAttemptAt: minute(3), createdAt: minute(0) })
        const m1 = aMessage({ organizationId: other, nextAttemptAt: minute(1), createdAt: minute(9) })
        const m2low = aMessage({ id: low, organizationId: org, nextAttemptAt: minute(2) })
        const m2high = aMessage({ id: high, organizationId: other, nextAttemptAt: minute(2) })
        const m4 = aMessage({ organizationId: org, nextAttemptAt: minute(4) })
        await enqueue(m4, m2high, m3, m2low, m1)

        const first = await claim(minute(10), 2, minute(20))
        expect(first).toEqual([claimed(m1, minute(20)), claimed(m2low, minute(20))])
        const second = await claim(minute(10), 2, minute(20))
        expect(second).toEqual([claimed(m2high, minute(20)), claimed(m3, minute(20))])
        const third = await claim(minute(10), 2, minute(20))
        expect(third).toEqual([claimed(m4, minute(20))])
        expect(await claim(minute(10), 2, minute(20))).toEqual([])
      })

      test('answers nothing when nothing is due', async () => {
        const message = aMessage({ organizationId: org, nextAttemptAt: minute(30) })
        await enqueue(message)

        expect(await claim(minute(29), 10, minute(40))).toEqual([])
        expect(await boxRead().outbox.findById(message.id)).toEqual(message)
      })

      test('a lapsed sending claim is claimable again, a fresh one is not', async () => {
        const lapsed = aMessage({ organizationId: org, status: 'sending', attempts: 1, nextAttemptAt: minute(0), lockedUntil: minute(4) })
        const lapsingNow = aMessage({ organizationId: org, status: 'sending', nextAttemptAt: minute(1), lockedUntil: minute(5) })
        const fresh = aMessage({ organizationId: org, status: 'sending', nextAttemptAt: minute(0), lockedUntil: minute(6) })
        await enqueue(fresh, lapsingNow, lapsed)

        const got = await claim(minute(5), 10, minute(15))

        expect(got).toEqual([claimed(lapsed, minute(15)), claimed(lapsingNow, minute(15))])
        expect(await boxRead().outbox.findById(lapsed.id)).toEqual(claimed(lapsed, minute(15)))
        expect(await boxRead().outbox.findById(fresh.id)).toEqual(fresh)
        // Once its lease lapses, the fresh one comes back too.
        expect(await claim(minute(6), 10, minute(16))).toEqual([claimed(fresh, minute(16))])
      })

      test('two claims in sequence never hand out one message while its lease holds, and it comes back once the lease lapses', async () => {
        const messages = ascendingIds(5).map((id, i) => aMessage({ id, organizationId: org, nextAttemptAt: minute(i) }))
        await enqueue(...[...messages].reverse())

        const first = await claim(minute(10), 3, minute(11))
        const second = await claim(minute(10.5), 10, minute(12))

        expect(ids(first)).toEqual(ids(messages.slice(0, 3)))
        expect(ids(second)).toEqual(ids(messages.slice(3)))
        expect(await claim(minute(10.9), 10, minute(13))).toEqual([])
        // The first worker died: its three come back after minute 11, the second's are still held.
        const retaken = await claim(minute(11), 10, minute(21))
        expect(retaken).toEqual(messages.slice(0, 3).map((m) => claimed(m, minute(21))))
      })

      test('a sent or failed message is never claimed again', async () => {
        const toSend = aMessage({ organizationId: org })
        const toFail = aMessage({ organizationId: org })
        const storedSent = aMessage({ organizationId: org, status: 'sent', sentAt: minute(1) })
        const storedFailed = aMessage({ organizationId: org, status: 'failed', attempts: 5, lastError: 'bounced' })
        await enqueue(toSend, toFail, storedSent, storedFailed)
        expect(ids(await claim(minute(1), 10, minute(2))).sort()).toEqual([toSend.id, toFail.id].sort())

        await boxWrite(async (r) => {
          await r.outbox.markSent(toSend.id, minute(1.5), 'provider-1')
          await r.outbox.markFailed(toFail.id, 1, '550 mailbox unavailable')
        })

        expect(await claim(minute(60 * 24 * 365), 100, minute(60 * 24 * 366))).toEqual([])
        expect(await boxRead().outbox.findById(storedSent.id)).toEqual(storedSent)
        expect(await boxRead().outbox.findById(storedFailed.id)).toEqual(storedFailed)
      })

      test('markSent records the time and provider id, dropping the claim', async () => {
        const withId = aMessage({ organizationId: org })
        const withoutId = aMessage({ organizationId: org, nextAttemptAt: minute(0.5) })
        await enqueue(withId, withoutId)
        await claim(minute(1), 10, minute(2))

        await boxWrite(async (r) => {
          await r.outbox.markSent(withId.id, minute(1.5), 'provider-42')
          await r.outbox.markSent(withoutId.id, minute(1.75), undefined)
        })

        const sent = await boxRead().outbox.findById(withId.id)
        expect(sent).toEqual({ ...withId, status: 'sent', sentAt: minute(1.5), providerMessageId: 'provider-42' })
        expect(presentKeys(sent, ['lockedUntil', 'lastError'])).toEqual([])
        const sentWithoutId = await boxRead().outbox.findById(withoutId.id)
        expect(sentWithoutId).toEqual({ ...withoutId, status: 'sent', sentAt: minute(1.75) })
        expect(presentKeys(sentWithoutId, ['lockedUntil', 'lastError', 'providerMessageId'])).toEqual([])
      })

      test('reschedule puts a message back to pending with its attempts, next time and error, claimable only then', async () => {
        const message = aMessage({ organizationId: org })
        await enqueue(message)
        await claim(minute(0), 10, minute(1))

        await boxWrite((r) => r.outbox.reschedule(message.id, 1, minute(3), '503 try later'))

        const rescheduled = await boxRead().outbox.findById(message.id)
        expect(rescheduled).toEqual({ ...message, status: 'pending', attempts: 1, nextAttemptAt: minute(3), lastError: '503 try later' })
        expect(presentKeys(rescheduled, ['lockedUntil', 'sentAt', 'providerMessageId'])).toEqual([])
        expect(await claim(minute(2.9), 10, minute(4))).toEqual([])
        expect(await claim(minute(3), 10, minute(4))).toEqual([{ ...message, status: 'sending', attempts: 1, nextAttemptAt: minute(3), lastError: '503 try later', lockedUntil: minute(4) }])
      })

      test('markFailed records the attempts and error for good', async () => {
        const message = aMessage({ organizationId: org, attempts: 4, nextAttemptAt: minute(2) })
        await enqueue(message)
        await claim(minute(2), 10, minute(3))

        await boxWrite((r) => r.outbox.markFailed(message.id, 5, '421 too many tries'))

        const failed = await boxRead().outbox.findById(message.id)
        expect(failed).toEqual({ ...message, status: 'failed', attempts: 5, lastError: '421 too many tries' })
        expect(presentKeys(failed, ['lockedUntil', 'sentAt', 'providerMessageId'])).toEqual([])
      })

      test('a claim in a transaction that rolls back leaves its messages pending', async () => {
        const message = aMessage({ organizationId: org })
        await enqueue(message)
        const failure = new Error('worker crashed')

        await expect(
          boxWrite(async (r) => {
            expect(await r.outbox.claimDue(minute(1), 10, minute(2))).toHaveLength(1)
            throw failure
          }),
        ).rejects.toBe(failure)

        expect(await boxRead().outbox.findById(message.id)).toEqual(message)
        expect(await claim(minute(1), 10, minute(2))).toEqual([claimed(message, minute(2))])
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
        expect(await boxRead().outbox.findById(message.id)).toBeUndefined()
        expect(await boxRead().members.findById(org, member.id)).toBeUndefined()
        expect(await claim(minute(60), 100, minute(61))).toEqual([])
      })
    })
  })
}
