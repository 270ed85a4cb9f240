import { beforeEach, describe, expect, test } from 'bun:test'
import type { Actor } from '../../../src/domain/auth/actor'
import type { AuditEvent } from '../../../src/domain/audit/audit-event'
import { WITHHELD_DUPLICATE_WARNING } from '../../../src/domain/constituents/duplicate-hints'
import type { PossibleDuplicate } from '../../../src/domain/constituents/matching'
import { createWorld, type World } from '../../support/world'
import { ALL, matchesOf, register } from './steps'

// docs/constituents.md "Duplicate detection": what a creation tells of the people it resembles follows the
// caller's rights; what it shows is a read of those people, audited as a search is.
let world: World
beforeEach(async () => {
  world = await createWorld()
})

const PHONE = '+15551234567'
const BIRTH = { firstName: 'Ana', lastName: 'Lopez', dateOfBirth: '1980-05-01' }

/** The members whose rights differ: every detail, phone and email only, names only. */
const readers = {
  admin: () => world.admin,
  contactReader: () => world.member('staff', { profiles: ['email_phone_communicator'] }),
  staff: () => world.member('staff'),
  agent: () => world.member('partner_agent', { partnerId: world.defaultPartner.id }),
}

/** A creation's answer, and the constituent it registered. */
interface Created {
  answer: { possibleDuplicates?: PossibleDuplicate[]; duplicateWarning?: string }
  constituentId: string
}
async function createConstituent(actor: Actor, fields: Record<string, string>): Promise<Created> {
  world.clock.advance(60_000)
  const answer = await world.useCases.constituents.create.execute(actor, fields)
  return { answer, constituentId: answer.id }
}
async function createNeed(actor: Actor, customFields: Record<string, string>): Promise<Created & { needId: string }> {
  world.clock.advance(60_000)
  const answer = await world.useCases.needs.create.execute(actor, { partnerId: world.defaultPartner.id, customFields })
  return { answer, constituentId: answer.constituentId!, needId: answer.id }
}

/** The `read` events of constituents the member caused. */
async function readsBy(actor: Actor): Promise<AuditEvent[]> {
  const events = await world.repositories.auditEvents.list(world.organizationId, { memberId: actor.memberId, action: 'read' }, ALL)
  return events.items
}

describe.each([
  ['POST /api/constituents', createConstituent],
  ['POST /api/needs', createNeed],
] as const)('duplicate hints on %s', (_route, create) => {
  test.each([['staff'], ['agent']] as const)(
    '%s, who may not search by phone, learns that a duplicate exists, not who nor how many; the match is recorded',
    async (who) => {
      const actor = await readers[who]()
      const known = await register(world, { firstName: 'Ana', phone: PHONE })
      const one = await create(actor, { firstName: 'x', phone: PHONE })
      expect(one.answer).not.toHaveProperty('possibleDuplicates')
      expect(one.answer.duplicateWarning).toBe(WITHHELD_DUPLICATE_WARNING)
      expect(JSON.stringify(one.answer)).not.toContain(known.id)
      // Two more share the phone: the answer says no more than before.
      await register(world, { firstName: 'Bea', phone: PHONE })
      const three = await create(actor, { firstName: 'y', phone: PHONE })
      expect(three.answer.duplicateWarning).toBe(one.answer.duplicateWarning!)
      expect(three.answer).not.toHaveProperty('possibleDuplicates')
      // Those who resolve duplicates find the pairs all the same; nothing was shown, so nothing was read.
      expect((await matchesOf(world)).filter((m) => m.constituentId === three.constituentId)).toHaveLength(3)
      expect(await readsBy(actor)).toEqual([])
    },
  )

  test('whoever may read the details sees every candidate with its reasons, each a read of that person naming what it told', async () => {
    const byPhone = await register(world, { firstName: 'Bea', phone: PHONE })
    const byBirth = await register(world, BIRTH)
    const { answer: created } = await create(world.admin, { ...BIRTH, phone: PHONE })
    expect(created.possibleDuplicates!.sort((a, b) => a.reasons[0]!.localeCompare(b.reasons[0]!))).toEqual([
      { constituentId: byBirth.id, reasons: ['same name and date of birth'] },
      { constituentId: byPhone.id, reasons: ['same phone'] },
    ])
    expect(created.duplicateWarning).toBe('Possible duplicate of 2 constituents: same phone, same name and date of birth')
    const reads = (await readsBy(world.admin)).map((e) => [e.recordType, e.recordId, e.fields])
    expect(reads.sort()).toEqual(
      [
        ['constituent', byPhone.id, ['phone']],
        ['constituent', byBirth.id, ['dateOfBirth']],
      ].sort(),
    )
  })

  test('a member who reads phones but not dates of birth sees the phone match only, and that another exists', async () => {
    const actor = await readers.contactReader()
    const byPhone = await register(world, { firstName: 'Bea', phone: PHONE })
    const byBirth = await register(world, { ...BIRTH, phone: '+15550000001' })
    const { answer: created } = await create(actor, { ...BIRTH, phone: PHONE })
    expect(created.possibleDuplicates).toEqual([{ constituentId: byPhone.id, reasons: ['same phone'] }])
    expect(created.duplicateWarning).toBe('Possible duplicate: same phone; and on details you may not read')
    expect(JSON.stringify(created)).not.toContain(byBirth.id)
    expect((await readsBy(actor)).map((e) => [e.recordId, e.fields])).toEqual([[byPhone.id, ['phone']]])
  })
})

describe("a need's stored warning, read later", () => {
  test('reads whole to whoever may read every reason in it, and without count or hidden reasons to others', async () => {
    await register(world, { firstName: 'Bea', phone: PHONE })
    await register(world, { firstName: 'Cy', phone: PHONE, email: 'cy@example.org' })
    const { needId } = await createNeed(world.admin, { firstName: 'Dee', phone: PHONE, email: 'cy@example.org' })
    const readBy = async (actor: Actor) => (await world.useCases.needs.get.execute(actor, needId)).duplicateWarning
    expect(await readBy(world.admin)).toBe('Possible duplicate of 2 constituents: same phone, same email')
    expect(await readBy(await readers.contactReader())).toBe('Possible duplicate of 2 constituents: same phone, same email')
    for (const actor of [
      await readers.staff(),
      await readers.agent(),
      await world.member('volunteer', { partnerId: world.defaultPartner.id }),
    ]) {
      expect(await readBy(actor)).toBe(WITHHELD_DUPLICATE_WARNING)
    }
    const listed = await world.useCases.needs.list.execute(await readers.staff(), {}, ALL)
    expect(listed.items.find((n) => n.id === needId)!.duplicateWarning).toBe(WITHHELD_DUPLICATE_WARNING)
  })

  test('names to a phone reader the reasons it may read, and no count', async () => {
    await register(world, { ...BIRTH, phone: PHONE })
    const { answer, needId } = await createNeed(world.admin, { ...BIRTH, phone: PHONE })
    expect(answer.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone, same name and date of birth')
    const asContactReader = await world.useCases.needs.get.execute(await readers.contactReader(), needId)
    expect(asContactReader.duplicateWarning).toBe('Possible duplicate: same phone; and on details you may not read')
  })
})
