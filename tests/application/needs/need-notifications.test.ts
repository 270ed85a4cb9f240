import { beforeEach, describe, expect, test } from 'bun:test'
import type { Actor } from '../../../src/domain/auth/actor'
import type { Partner } from '../../../src/domain/partners/partner'
import { createMailWorld, PUBLIC_BASE_URL, type MailWorld } from '../mail-world'

// docs/api/organization.md "Notifications": who hears of a need, through the outbox, with nothing of the person in it.
let world: MailWorld
let pantry: Partner
let shelter: Partner
beforeEach(async () => {
  world = await createMailWorld()
  pantry = await world.partner({ name: 'Pantry' })
  shelter = await world.partner({ name: 'Shelter' })
})

const PERSON = { firstName: 'Grace', lastName: 'Hopper', phone: '+15550100123', email: 'grace@example.org', addressStreet: '12 Elm Street' }
const DESCRIPTION = 'We have no food left for the children this week'

async function submitted(partnerId = pantry.id) {
  return world.useCases.needs.submitPublic.execute({
    organizationId: world.organizationId,
    partnerId,
    description: DESCRIPTION,
    customFields: PERSON,
  })
}

async function mailsAfterOneRound() {
  await world.dispatch()
  return world.fallbackMail()
}

const emailOf = async (actor: Actor) => (await world.repositories.members.findById(actor.organizationId, actor.memberId))!.email

describe('a need from public intake', () => {
  test('mails the org_admins and its partner’s partner_admin, in one worker round, with no personal detail', async () => {
    const pantryAdmin = await world.member('partner_admin', { partnerId: pantry.id })
    const shelterAdmin = await world.member('partner_admin', { partnerId: shelter.id })
    const staff = await world.member('staff')
    const need = await submitted()

    const mails = await mailsAfterOneRound()
    const to = mails.map((m) => m.to).sort()
    expect(to).toEqual([await emailOf(world.admin), await emailOf(pantryAdmin)].sort())
    expect(to).not.toContain(await emailOf(shelterAdmin))
    expect(to).not.toContain(await emailOf(staff))
    for (const mail of mails) {
      expect(mail.subject).toBe(`New request ${need.referenceNumber} for Pantry`)
      expect(mail.text).toContain(`${PUBLIC_BASE_URL}/#/needs/${need.referenceNumber}`)
      expect(mail.text).toContain('Status: New')
      for (const personal of [...Object.values(PERSON), DESCRIPTION, 'Grace', '0100123'])
        expect(`${mail.subject}\n${mail.text}`).not.toContain(personal)
    }
  })

  test('follows each member’s choice and language, and leaves out the deactivated', async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id, notifications: { newNeeds: true }, language: 'es' })
    await world.member('partner_admin', { partnerId: pantry.id, notifications: { newNeeds: false } })
    await world.member('partner_admin', { partnerId: pantry.id, deactivatedAt: world.clock.now() })
    const need = await submitted()

    const mails = await mailsAfterOneRound()
    expect(mails.map((m) => m.to).sort()).toEqual([await emailOf(world.admin), await emailOf(agent)].sort())
    const agentEmail = await emailOf(agent)
    expect(mails.filter((m) => m.to === agentEmail).map((m) => m.subject)).toEqual([`Nueva solicitud ${need.referenceNumber} para Pantry`])
    expect(mails.find((m) => m.to === agentEmail)!.text).toContain('Estado: Nueva')
    expect(mails.filter((m) => m.to !== agentEmail).map((m) => m.subject)).toEqual([`New request ${need.referenceNumber} for Pantry`])
  })

  test('a need staff record themselves mails nobody of its arrival', async () => {
    await world.member('partner_admin', { partnerId: pantry.id })
    await world.useCases.needs.create.execute(world.admin, { partnerId: pantry.id, customFields: PERSON })
    expect(await mailsAfterOneRound()).toEqual([])
  })
})

describe('an assignment', () => {
  test('mails the assignee when someone else assigns it, not when it takes the need itself', async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    const created = await world.useCases.needs.create.execute(world.admin, { partnerId: pantry.id })
    await world.useCases.needs.update.execute(world.admin, created.id, { assignedTo: agent.memberId })
    const mails = await mailsAfterOneRound()
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[await emailOf(agent), `Request ${created.referenceNumber} is assigned to you`]])

    await world.useCases.needs.update.execute(agent, created.id, { assignedTo: null })
    await world.useCases.needs.update.execute(agent, created.id, { assignedTo: agent.memberId })
    expect((await mailsAfterOneRound()).length).toBe(1)
  })

  test('on creation too, and not to an assignee who turned it off', async () => {
    const agent = await world.member('partner_agent', { partnerId: pantry.id })
    const quiet = await world.member('partner_agent', { partnerId: pantry.id, notifications: { assignedToMe: false } })
    await world.useCases.needs.create.execute(world.admin, { partnerId: pantry.id, assignedTo: agent.memberId })
    await world.useCases.needs.create.execute(world.admin, { partnerId: pantry.id, assignedTo: quiet.memberId })
    expect((await mailsAfterOneRound()).map((m) => m.to)).toEqual([await emailOf(agent)])
  })
})
