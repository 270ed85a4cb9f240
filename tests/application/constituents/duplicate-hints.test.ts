import { beforeEach, describe, expect, test } from 'bun:test'
import type { Actor } from '../../../src/domain/auth/actor'
import type { AuditEvent } from '../../../src/domain/audit/audit-event'
import type { PossibleDuplicate } from '../../../src/domain/constituents/matching'
import { createWorld, type World } from '../../support/world'
import { ALL, matchesOf, register } from './steps'

// docs/constituents.md "Duplicate detection": what a creation tells of the people it resembles follows the
// caller's rights (a detail it may not read is not matched on for its answer); what it shows is a read of
// those people, audited as a search is.
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

/** What a creation told of possible duplicates. */
const hintsOf = ({ answer }: Created) => ({
  ...(answer.possibleDuplicates ? { possibleDuplicates: answer.possibleDuplicates } : {}),
  ...(answer.duplicateWarning ? { duplicateWarning: answer.duplicateWarning } : {}),
})

/** The `read` events of constituents the member caused. */
async function readsBy(actor: Actor): Promise<AuditEvent[]> {
  const events = await world.repositories.auditEvents.list(world.organizationId, { memberId: actor.memberId, action: 'read' }, ALL)
  return events.items
}

describe.each([
  ['POST /api/constituents', createConstituent],
  ['POST /api/needs', createNeed],
] as const)('duplicate hints on %s', (route, create) => {
  test.each([['staff'], ['agent']] as const)(
    '%s, who may not read phones, is told of no match on one; the match is recorded for those who resolve them',
    async (who) => {
      const actor = await readers[who]()
      await register(world, { firstName: 'Ana', phone: PHONE })
      await register(world, { firstName: 'Bea', phone: PHONE })
      const matched = await create(actor, { firstName: 'x', phone: PHONE })
      const unmatched = await create(actor, { firstName: 'y', phone: '+15550000009' })
      expect(hintsOf(matched)).toEqual({})
      expect(hintsOf(unmatched)).toEqual({})
      expect((await matchesOf(world)).filter((m) => m.constituentId === matched.constituentId)).toHaveLength(2)
      expect(await readsBy(actor)).toEqual([])
    },
  )

  test('a member who reads phones but not dates of birth gets the same answer whether or not the date of birth is on file', async () => {
    const actor = await readers.contactReader()
    await register(world, BIRTH)
    const wrong = await create(actor, { ...BIRTH, dateOfBirth: '1980-05-02' })
    const right = await create(actor, BIRTH)
    expect(hintsOf(right)).toEqual({})
    expect(hintsOf(wrong)).toEqual({})
    expect(await readsBy(actor)).toEqual([])
  })

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

  test('a member who reads phones but not dates of birth sees the phone match only, as if no date of birth had been given', async () => {
    const actor = await readers.contactReader()
    const byPhone = await register(world, { firstName: 'Bea', phone: PHONE })
    const byBirth = await register(world, { ...BIRTH, phone: '+15550000001' })
    const created = await create(actor, { ...BIRTH, phone: PHONE })
    expect(created.answer.possibleDuplicates).toEqual([{ constituentId: byPhone.id, reasons: ['same phone'] }])
    expect(created.answer.duplicateWarning).toBe(
      route === 'POST /api/needs' ? 'Possible duplicate: same phone' : 'Possible duplicate of 1 constituent: same phone',
    )
    expect(JSON.stringify(created.answer)).not.toContain(byBirth.id)
    expect((await readsBy(actor)).map((e) => [e.recordId, e.fields])).toEqual([[byPhone.id, ['phone']]])
    // Both pairs are recorded for those who resolve them.
    const pairs = (await matchesOf(world)).filter((m) => m.constituentId === created.constituentId)
    expect(pairs.map((m) => m.candidateConstituentId).sort()).toEqual([byPhone.id, byBirth.id].sort())
  })
})

describe("a need's stored warning, read later", () => {
  test('reads whole to whoever may read every matched detail; without count, naming only the reasons it may read, to others', async () => {
    await register(world, { firstName: 'Bea', phone: PHONE })
    await register(world, { firstName: 'Cy', phone: PHONE, email: 'cy@example.org' })
    const { needId } = await createNeed(world.admin, { firstName: 'Dee', phone: PHONE, email: 'cy@example.org' })
    const readBy = async (actor: Actor) => (await world.useCases.needs.get.execute(actor, needId)).duplicateWarning
    expect(await readBy(world.admin)).toBe('Possible duplicate of 2 constituents: same phone, same email')
    // The count may include people alike on details the reader may not read.
    expect(await readBy(await readers.contactReader())).toBe('Possible duplicate: same phone, same email')
    for (const actor of [
      await readers.staff(),
      await readers.agent(),
      await world.member('volunteer', { partnerId: world.defaultPartner.id }),
    ]) {
      expect(await readBy(actor)).toBeUndefined()
    }
    const listed = await world.useCases.needs.list.execute(await readers.staff(), {}, ALL)
    expect(listed.items.find((n) => n.id === needId)).not.toHaveProperty('duplicateWarning')
  })

  test('reads the same to a phone reader whether or not a date of birth matched too', async () => {
    await register(world, { ...BIRTH, phone: PHONE })
    await register(world, { firstName: 'Eve', phone: '+15550000002' })
    const both = await createNeed(world.admin, { ...BIRTH, phone: PHONE })
    const phoneOnly = await createNeed(world.admin, { ...BIRTH, dateOfBirth: '1980-05-02', phone: '+15550000002' })
    expect(both.answer.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone, same name and date of birth')
    expect(phoneOnly.answer.duplicateWarning).toBe('Possible duplicate of 1 constituent: same phone')
    const reader = await readers.contactReader()
    const readBy = async (needId: string) => (await world.useCases.needs.get.execute(reader, needId)).duplicateWarning
    expect(await readBy(both.needId)).toBe('Possible duplicate: same phone')
    expect(await readBy(phoneOnly.needId)).toBe(await readBy(both.needId))
  })
})
