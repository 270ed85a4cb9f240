import { beforeEach, describe, expect, test } from 'bun:test'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Partner } from '../../../src/domain/partners/partner'
import type { UpdateOrganizationSettingsInput } from '../../../src/application/organizations/organization-settings'
import { DIGEST_LIST_LIMIT } from '../../../src/application/needs/send-daily-digests'
import { createMailWorld, PUBLIC_BASE_URL, type MailWorld } from '../mail-world'

// docs/api/organization.md "Notifications": the daily digest, from the organization's local hour, once a day per member.
const HOUR = 3_600_000
let world: MailWorld
let pantry: Partner
let shelter: Partner
beforeEach(async () => {
  world = await createMailWorld()
  pantry = await world.partner({ name: 'Pantry', slaHours: 1 })
  shelter = await world.partner({ name: 'Shelter', slaHours: 1 })
})

const PERSON = { firstName: 'Grace', lastName: 'Hopper', phone: '+15550100123', email: 'grace@example.org', addressStreet: '12 Elm Street' }
const STORY = 'No food left for the children'

const schedule = (settings: UpdateOrganizationSettingsInput) => world.useCases.organizations.updateSettings.execute(world.admin, settings)
const at = (iso: string) => {
  world.clock.advance(new Date(iso).getTime() - world.clock.now().getTime())
}
const emailOf = async (actor: Actor) => (await world.repositories.members.findById(actor.organizationId, actor.memberId))!.email

/** A need of `partner`, created by the admin (assigned when told), due an hour after now. */
async function need(partner: Partner, options: { assignedTo?: Actor } = {}) {
  return world.useCases.needs.create.execute(world.admin, {
    partnerId: partner.id,
    customFields: { ...PERSON, story: STORY },
    ...(options.assignedTo ? { assignedTo: options.assignedTo.memberId } : {}),
  })
}

/** One run of the digests and one round of the outbox: the digests each member was mailed. */
async function digestsAfterOneRun() {
  await world.useCases.operations.sendDailyDigests.execute()
  await world.dispatch()
  return digests()
}
const digests = () => world.fallbackMail().filter((m) => /daily digest|resumen diario/.test(m.subject))
const digestsTo = async (actor: Actor) => {
  const email = await emailOf(actor)
  return digests().filter((m) => m.to === email)
}

describe('what a digest lists', () => {
  test("a member's overdue needs and its partner's unassigned ones, with reference, partner, status, due date and link, nothing of the person", async () => {
    await schedule({ digestHour: 8, timeZone: 'UTC' })
    at('2026-11-23T06:00:00Z')
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    const overdue = await need(pantry, { assignedTo: agent })
    const unassigned = await need(pantry)
    const notYetDue = await need(shelter, { assignedTo: agent })
    const otherPartners = await need(shelter)
    at('2026-11-23T08:00:00Z')

    await digestsAfterOneRun()
    const [mail, ...others] = await digestsTo(agent)
    expect(others).toEqual([])
    expect(mail!.subject).toBe('Your daily digest: 1 overdue, 1 unassigned')
    expect(mail!.text).toBe(
      [
        'Assigned to you and past their due date:',
        `- ${overdue.referenceNumber} · Pantry · NEW · due 2026-11-23 · ${PUBLIC_BASE_URL}/#/needs/${overdue.referenceNumber}`,
        '',
        'Open requests of Pantry that nobody is assigned to:',
        `- ${unassigned.referenceNumber} · Pantry · NEW · due 2026-11-23 · ${PUBLIC_BASE_URL}/#/needs/${unassigned.referenceNumber}`,
        '',
        'The details are in the console, behind your login.',
      ].join('\n'),
    )
    for (const hidden of [notYetDue.referenceNumber, otherPartners.referenceNumber, ...Object.values(PERSON), STORY, 'Grace'])
      expect(`${mail!.subject}\n${mail!.text}`).not.toContain(hidden)
  })

  test('members who see the whole organization get its unassigned open needs; resolved and assigned ones are left out', async () => {
    const staff = await world.member('staff')
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    const atPantry = await need(pantry)
    const atShelter = await need(shelter)
    const resolved = await need(shelter)
    await world.useCases.needs.update.execute(world.admin, resolved.id, { status: 'RESOLVED' })
    const taken = await need(pantry, { assignedTo: agent })

    await digestsAfterOneRun()
    const [mail] = await digestsTo(staff)
    expect(mail!.text).toContain('Open requests of the organization that nobody is assigned to:')
    expect(mail!.text).toContain(atPantry.referenceNumber)
    expect(mail!.text).toContain(atShelter.referenceNumber)
    expect(mail!.text).not.toContain(resolved.referenceNumber)
    expect(mail!.text).not.toContain(taken.referenceNumber)
  })

  test("in the member's language", async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id, language: 'es' })
    const waiting = await need(pantry)
    await digestsAfterOneRun()
    const [mail] = await digestsTo(agent)
    expect(mail!.subject).toBe('Su resumen diario: 0 vencidas, 1 sin asignar')
    expect(mail!.text).toContain('Solicitudes abiertas de Pantry que nadie tiene asignadas:')
    expect(mail!.text).toContain(`- ${waiting.referenceNumber} · Pantry · NEW · vence`)
  })

  test(`at most ${DIGEST_LIST_LIMIT} needs a list, and says there are more`, async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    for (let i = 0; i <= DIGEST_LIST_LIMIT; i++) await need(pantry)
    await digestsAfterOneRun()
    const [mail] = await digestsTo(agent)
    expect(mail!.subject).toBe(`Your daily digest: 0 overdue, ${DIGEST_LIST_LIMIT}+ unassigned`)
    expect(mail!.text.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(DIGEST_LIST_LIMIT)
    expect(mail!.text).toContain('… and more in the staff console.')
  })

  test('nothing to list, no mail: and the day is over for that member', async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    await need(shelter)
    expect(await digestsAfterOneRun()).not.toContainEqual(expect.objectContaining({ to: await emailOf(agent) }))
    await need(pantry)
    await digestsAfterOneRun()
    expect(await digestsTo(agent)).toEqual([])
  })

  test('nobody who turned it off, was deactivated, never accepted, or is a partner role without a partner', async () => {
    const off = await world.member('staff', { notifications: { dailyDigest: false } })
    const gone = await world.member('staff', { deactivatedAt: world.clock.now() })
    const invited = await world.member('staff', { isConfirmed: false })
    const partnerless = await world.member('volunteer')
    await need(pantry)
    await digestsAfterOneRun()
    for (const member of [off, gone, invited, partnerless]) expect(await digestsTo(member)).toEqual([])
    expect(await digestsTo(world.admin)).toHaveLength(1)
  })

  test("another organization's needs are never in it", async () => {
    const other = await world.otherOrganization()
    await other.useCases.needs.create.execute(other.admin, { partnerId: other.defaultPartner.id })
    const ours = await need(pantry)
    await digestsAfterOneRun()
    const [mail] = await digestsTo(world.admin)
    // Both are REQ-1001, each in its organization: the one line is ours, at our partner.
    expect(mail!.text.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      expect.stringContaining(`${ours.referenceNumber} · Pantry`),
    ])
  })
})

describe('when it goes', () => {
  test('from the hour on, in the organization’s time zone', async () => {
    await schedule({ digestHour: 8, timeZone: 'America/Chicago' })
    at('2026-11-23T13:59:00Z') // 07:59 in Chicago (UTC-6)
    await need(pantry)
    expect(await digestsAfterOneRun()).toEqual([])
    at('2026-11-23T14:00:00Z')
    expect(await digestsAfterOneRun()).toHaveLength(1)
  })

  test('once a day per member, however many runs; again the next local day', async () => {
    await schedule({ digestHour: 8, timeZone: 'Asia/Tokyo' })
    at('2026-11-23T23:00:00Z') // 08:00 on the 24th in Tokyo
    await need(pantry)
    await digestsAfterOneRun()
    world.clock.advance(HOUR)
    await digestsAfterOneRun()
    expect(await digestsTo(world.admin)).toHaveLength(1)
    at('2026-11-24T14:59:00Z') // 23:59 on the 24th
    await digestsAfterOneRun()
    expect(await digestsTo(world.admin)).toHaveLength(1)
    at('2026-11-24T23:00:00Z')
    await digestsAfterOneRun()
    expect(await digestsTo(world.admin)).toHaveLength(2)
  })

  test('an hour the clocks skip (daylight saving begins) sends at the first hour after it, once', async () => {
    await schedule({ digestHour: 2, timeZone: 'America/New_York' })
    at('2026-03-08T06:59:00Z') // 01:59 EST; the next minute is 03:00 EDT
    await need(pantry)
    expect(await digestsAfterOneRun()).toEqual([])
    at('2026-03-08T07:00:00Z')
    expect(await digestsAfterOneRun()).toHaveLength(1)
    world.clock.advance(HOUR)
    expect(await digestsAfterOneRun()).toHaveLength(1)
  })

  test('an hour the clocks repeat (daylight saving ends) sends once', async () => {
    await schedule({ digestHour: 1, timeZone: 'America/New_York' })
    at('2026-11-01T05:00:00Z') // 01:00 EDT
    await need(pantry)
    expect(await digestsAfterOneRun()).toHaveLength(1)
    at('2026-11-01T06:00:00Z') // 01:00 EST, the same local hour again
    expect(await digestsAfterOneRun()).toHaveLength(1)
  })

  test('a later hour set after the day’s digest went sends nothing more that day', async () => {
    await schedule({ digestHour: 8, timeZone: 'UTC' })
    at('2026-11-23T09:00:00Z')
    await need(pantry)
    await digestsAfterOneRun()
    await schedule({ digestHour: 10 })
    at('2026-11-23T10:00:00Z')
    expect(await digestsAfterOneRun()).toHaveLength(1)
  })

  test('a time zone moved west (the local date goes back) sends nothing twice', async () => {
    await schedule({ digestHour: 8, timeZone: 'Asia/Tokyo' })
    at('2026-11-23T23:00:00Z') // the 24th in Tokyo
    await need(pantry)
    await digestsAfterOneRun()
    await schedule({ timeZone: 'Pacific/Honolulu' })
    at('2026-11-24T18:00:00Z') // 08:00 on the 24th in Honolulu
    expect(await digestsAfterOneRun()).toHaveLength(1)
  })
})
