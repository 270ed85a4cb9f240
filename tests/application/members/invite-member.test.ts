import { beforeEach, describe, expect, test } from 'bun:test'
import type { InviteMember, InviteMemberInput } from '../../../src/application/members/invite-member'
import type { Actor } from '../../../src/domain/auth/actor'
import { ConflictError, ForbiddenError, InvalidError } from '../../../src/domain/errors'
import { INVITATION_LIFETIME_MS } from '../../../src/domain/members/invitation'
import type { Partner } from '../../../src/domain/partners/partner'
import { PORTS } from '../../../src/main/container'
import { failureOf, pathsOf } from '../failure-of'
import { createMailWorld, linkIn, PUBLIC_BASE_URL, tokenIn, type MailWorld } from '../mail-world'

let world: MailWorld
let invite: InviteMember
let pantry: Partner
beforeEach(async () => {
  world = await createMailWorld()
  invite = world.useCases.members.invite
  pantry = await world.partner({ name: 'Pantry' })
})

const memberCount = async (w = world) => (await w.repositories.members.list(w.organizationId, {}, { page: 1, limit: 100 })).total
const storedByEmail = (email: string) => world.repositories.members.findByEmail(world.organizationId, email)
const staffInput = (overrides: Partial<InviteMemberInput> = {}): InviteMemberInput => ({
  email: 'new.staff@example.org',
  role: 'staff',
  ...overrides,
})

/** Sends what the outbox holds and answers the mail the fallback was handed. */
async function sentMail() {
  await world.dispatch()
  return world.fallbackMail()
}

describe('InviteMember', () => {
  test('adds an unconfirmed member without a password and answers its view', async () => {
    const view = await invite.execute(world.admin, staffInput({ fullName: 'Ana Lopez', phone: '+15551234567', profiles: ['pii_reader'] }))
    expect(view).toEqual({
      id: expect.any(String),
      email: 'new.staff@example.org',
      fullName: 'Ana Lopez',
      role: 'staff',
      phone: '+15551234567',
      profiles: ['pii_reader'],
      isConfirmed: false,
      active: true,
    })
    const stored = await world.repositories.members.findById(world.organizationId, view.id)
    expect(stored).toMatchObject({
      email: 'new.staff@example.org',
      role: 'staff',
      isConfirmed: false,
      organizationId: world.organizationId,
    })
    expect(stored!.passwordHash).toBeUndefined()
  })

  test('stores the email trimmed and lower-cased', async () => {
    const view = await invite.execute(world.admin, staffInput({ email: '  Ana.Lopez@EXAMPLE.org ' }))
    expect(view.email).toBe('ana.lopez@example.org')
    expect((await storedByEmail('ana.lopez@example.org'))?.id).toBe(view.id)
  })

  test('collapses repeated profiles into one each', async () => {
    const view = await invite.execute(world.admin, staffInput({ profiles: ['pii_reader', 'intake_staff', 'pii_reader', 'intake_staff'] }))
    expect(view.profiles).toEqual(['pii_reader', 'intake_staff'])
    expect((await storedByEmail('new.staff@example.org'))!.profiles).toEqual(['pii_reader', 'intake_staff'])
  })

  test("gives a partner role its partner and answers the partner's name", async () => {
    const view = await invite.execute(world.admin, { email: 'agent@example.org', role: 'partner_agent', partnerId: pantry.id })
    expect(view).toMatchObject({ role: 'partner_agent', partnerId: pantry.id, partnerName: 'Pantry' })
    expect((await storedByEmail('agent@example.org'))!.partnerId).toBe(pantry.id)
  })

  describe('the email', () => {
    test('already in the organization, in any case, is a Conflict and nothing is added or sent', async () => {
      await invite.execute(world.admin, staffInput({ email: 'taken@example.org' }))
      await world.dispatch()
      const before = await memberCount()
      await failureOf(invite.execute(world.admin, staffInput({ email: 'TAKEN@example.org', role: 'org_admin' })), ConflictError)
      expect(await memberCount()).toBe(before)
      expect(await world.dispatch()).toBe(0)
    })

    test('two invitations of one email at the same time: one is added, the other is a Conflict', async () => {
      const results = await Promise.allSettled([
        invite.execute(world.admin, staffInput({ email: 'race@example.org' })),
        invite.execute(world.admin, staffInput({ email: 'Race@example.org', role: 'org_admin' })),
      ])
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError)
      expect((await sentMail()).filter((m) => m.to === 'race@example.org')).toHaveLength(1)
    })

    test("of the organization's own admin is a Conflict", async () => {
      const admin = await world.repositories.members.findById(world.organizationId, world.admin.memberId)
      await failureOf(invite.execute(world.admin, staffInput({ email: admin!.email })), ConflictError)
    })

    test('held in another organization may be invited here', async () => {
      const other = await world.otherOrganization()
      await other.member('staff', { email: 'shared@example.org' })
      const view = await invite.execute(world.admin, staffInput({ email: 'shared@example.org' }))
      expect((await storedByEmail('shared@example.org'))?.id).toBe(view.id)
    })
  })

  describe('role and partner', () => {
    for (const role of ['partner_admin', 'partner_agent', 'volunteer'] as const) {
      test(`${role} without a partnerId is Invalid at /partnerId and adds no one`, async () => {
        const before = await memberCount()
        const error = await failureOf(invite.execute(world.admin, { email: 'p@example.org', role }), InvalidError)
        expect(pathsOf(error)).toEqual(['/partnerId'])
        expect(await memberCount()).toBe(before)
      })
    }

    for (const role of ['org_admin', 'staff'] as const) {
      test(`${role} with a partnerId is Invalid at /partnerId: it sees the whole organization`, async () => {
        const error = await failureOf(invite.execute(world.admin, { email: 'o@example.org', role, partnerId: pantry.id }), InvalidError)
        expect(pathsOf(error)).toEqual(['/partnerId'])
        expect(await storedByEmail('o@example.org')).toBeUndefined()
      })
    }

    test('an unknown partnerId is Invalid at /partnerId and nothing is added or sent', async () => {
      const error = await failureOf(
        invite.execute(world.admin, { email: 'p@example.org', role: 'partner_agent', partnerId: crypto.randomUUID() }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/partnerId'])
      expect(await storedByEmail('p@example.org')).toBeUndefined()
      expect(await world.dispatch()).toBe(0)
    })

    test("another organization's partner is Invalid at /partnerId", async () => {
      const other = await world.otherOrganization()
      const error = await failureOf(
        invite.execute(world.admin, { email: 'p@example.org', role: 'volunteer', partnerId: other.defaultPartner.id }),
        InvalidError,
      )
      expect(pathsOf(error)).toEqual(['/partnerId'])
      expect(await storedByEmail('p@example.org')).toBeUndefined()
    })
  })

  describe('the invitation email', () => {
    test('exactly one goes through the outbox, to the member, with a link to PUBLIC_BASE_URL/accept-invite', async () => {
      await invite.execute(world.admin, staffInput({ fullName: 'Ana Lopez' }))
      expect(await world.dispatch()).toBe(1)
      expect(await world.dispatch()).toBe(0)
      const mail = world.fallbackMail()
      expect(mail).toHaveLength(1)
      expect(mail[0]).toMatchObject({ to: 'new.staff@example.org', organizationId: world.organizationId })
      expect(mail[0]!.text).toContain('Ana Lopez')
      expect(linkIn(mail[0]!)).toStartWith(`${PUBLIC_BASE_URL}/accept-invite?token=`)
      expect(tokenIn(mail[0]!).length).toBeGreaterThanOrEqual(43) // 256 bits in base64url
    })

    test('links to an appUrl on one of the appOrigins instead, without a doubled slash', async () => {
      await world.useCases.organizations.updateSettings.execute(world.admin, { appOrigins: ['https://app.example.org'] })
      await invite.execute(world.admin, staffInput({ appUrl: 'https://app.example.org/' }))
      const [mail] = await sentMail()
      expect(linkIn(mail!)).toStartWith('https://app.example.org/accept-invite?token=')
    })

    test('writes the link from the parsed appUrl, not its text: lower case, no default port', async () => {
      await world.useCases.organizations.updateSettings.execute(world.admin, { appOrigins: ['https://app.example.org'] })
      await invite.execute(world.admin, staffInput({ appUrl: 'https://App.EXAMPLE.org:443/Join' }))
      const [mail] = await sentMail()
      expect(linkIn(mail!)).toStartWith('https://app.example.org/Join/accept-invite?token=')
    })

    test("links to an appUrl on PUBLIC_BASE_URL's own origin, a path kept", async () => {
      await invite.execute(world.admin, staffInput({ appUrl: `${PUBLIC_BASE_URL}/staff` }))
      const [mail] = await sentMail()
      expect(linkIn(mail!)).toStartWith(`${PUBLIC_BASE_URL}/staff/accept-invite?token=`)
    })

    test.each([
      ['an origin not listed', 'https://evil.example/steal'],
      ["another organization's app", 'https://other-app.example.org'],
      ['a listed host over http', 'http://app.example.org'],
      ['a listed host behind credentials', 'https://app.example.org@evil.example'],
      ['a listed host on another port', 'https://app.example.org:8443'],
      ['a listed host, a backslash, then another host', 'https://app.example.org\\@evil.example'],
      ['a listed host after credentials', 'https://user:pw@app.example.org/'],
      ['a listed host with a fragment', 'https://app.example.org/#x'],
      ['a listed host with a query', 'https://app.example.org/?next=https://evil.example'],
      ['a listed host under a scheme in capitals', 'HTTPS://app.example.org'],
    ])('%s is Invalid at /appUrl: no member, no invitation, no email', async (_name, appUrl) => {
      await world.useCases.organizations.updateSettings.execute(world.admin, { appOrigins: ['https://app.example.org'] })
      const other = await world.otherOrganization()
      await other.useCases.organizations.updateSettings.execute(other.admin, { appOrigins: ['https://other-app.example.org'] })
      const error = await failureOf(invite.execute(world.admin, staffInput({ appUrl })), InvalidError)
      expect(pathsOf(error)).toEqual(['/appUrl'])
      expect(await storedByEmail('new.staff@example.org')).toBeUndefined()
      expect(await sentMail()).toEqual([])
    })

    test('goes to the lower-cased address', async () => {
      await invite.execute(world.admin, staffInput({ email: 'Mixed.Case@Example.ORG' }))
      expect((await sentMail()).map((m) => m.to)).toEqual(['mixed.case@example.org'])
    })

    test('carries a fresh token for each invitation', async () => {
      await invite.execute(world.admin, staffInput({ email: 'one@example.org' }))
      await invite.execute(world.admin, staffInput({ email: 'two@example.org' }))
      const tokens = (await sentMail()).map(tokenIn)
      expect(new Set(tokens).size).toBe(2)
    })

    test('its token is stored only as a digest, valid for 7 days', async () => {
      await invite.execute(world.admin, staffInput())
      const [mail] = await sentMail()
      const token = tokenIn(mail!)
      expect(await world.repositories.invitations.findByDigest(token)).toBeUndefined()
      const invitation = await world.repositories.invitations.findByDigest(world.container.get(PORTS.secrets).digest(token))
      expect(invitation).toMatchObject({ organizationId: world.organizationId, createdAt: world.clock.now() })
      expect(invitation!.expiresAt.getTime() - world.clock.now().getTime()).toBe(INVITATION_LIFETIME_MS)
      expect(INVITATION_LIFETIME_MS).toBe(7 * 24 * 3_600_000)
      expect(invitation!.usedAt).toBeUndefined()
    })
  })

  describe('a partner_admin', () => {
    let partnerAdmin: Actor
    beforeEach(async () => {
      partnerAdmin = await world.member('partner_admin', { partnerId: pantry.id })
    })

    for (const role of ['partner_agent', 'volunteer'] as const) {
      test(`may invite a ${role} of its own partner`, async () => {
        const view = await invite.execute(partnerAdmin, { email: `${role}@example.org`, role, partnerId: pantry.id })
        expect(view).toMatchObject({ role, partnerId: pantry.id, isConfirmed: false })
        expect((await sentMail()).map((m) => m.to)).toEqual([`${role}@example.org`])
      })
    }

    test('may not invite an agent or volunteer of another partner (Forbidden), and nothing is added or sent', async () => {
      for (const role of ['partner_agent', 'volunteer'] as const) {
        await failureOf(
          invite.execute(partnerAdmin, { email: `${role}@example.org`, role, partnerId: world.defaultPartner.id }),
          ForbiddenError,
        )
        expect(await storedByEmail(`${role}@example.org`)).toBeUndefined()
      }
      expect(await world.dispatch()).toBe(0)
    })

    test('may not invite another partner_admin, even of its own partner (Forbidden)', async () => {
      await failureOf(
        invite.execute(partnerAdmin, { email: 'pa@example.org', role: 'partner_admin', partnerId: pantry.id }),
        ForbiddenError,
      )
      expect(await storedByEmail('pa@example.org')).toBeUndefined()
    })

    test('grants only the profiles it holds itself: any other profile is Forbidden and nothing is added', async () => {
      const holder = await world.member('partner_admin', { partnerId: pantry.id, profiles: ['pii_reader'] })
      for (const profile of ['duplicate_resolver', 'sms_communicator', 'pii_reader'] as const) {
        const error = await failureOf(
          invite.execute(partnerAdmin, { email: 'a@example.org', role: 'partner_agent', partnerId: pantry.id, profiles: [profile] }),
          ForbiddenError,
        )
        expect(error.message).toContain(profile)
      }
      expect(await storedByEmail('a@example.org')).toBeUndefined()
      const view = await invite.execute(holder, {
        email: 'a@example.org',
        role: 'partner_agent',
        partnerId: pantry.id,
        profiles: ['pii_reader'],
      })
      expect(view.profiles).toEqual(['pii_reader'])
      await failureOf(
        invite.execute(holder, {
          email: 'b@example.org',
          role: 'volunteer',
          partnerId: pantry.id,
          profiles: ['pii_reader', 'duplicate_resolver'],
        }),
        ForbiddenError,
      )
      expect(await storedByEmail('b@example.org')).toBeUndefined()
    })

    test('may not invite staff or an org_admin (Forbidden)', async () => {
      for (const role of ['staff', 'org_admin'] as const) {
        await failureOf(invite.execute(partnerAdmin, { email: `${role}@example.org`, role }), ForbiddenError)
        expect(await storedByEmail(`${role}@example.org`)).toBeUndefined()
      }
    })
  })

  test('an org_admin grants every profile, held or not', async () => {
    const view = await invite.execute(world.admin, staffInput({ profiles: ['duplicate_resolver', 'sms_communicator', 'pii_reader'] }))
    expect(view.profiles).toEqual(['duplicate_resolver', 'sms_communicator', 'pii_reader'])
  })

  test('staff, partner_agent and volunteer may not invite anyone (Forbidden)', async () => {
    for (const role of ['staff', 'partner_agent', 'volunteer'] as const) {
      const actor = await world.member(role, {
        partnerId: role === 'staff' ? undefined : pantry.id,
        profiles: ['intake_staff', 'needs_processor'],
      })
      await failureOf(invite.execute(actor, { email: 'v@example.org', role: 'volunteer', partnerId: pantry.id }), ForbiddenError)
    }
    expect(await storedByEmail('v@example.org')).toBeUndefined()
    expect(await world.dispatch()).toBe(0)
  })
})
