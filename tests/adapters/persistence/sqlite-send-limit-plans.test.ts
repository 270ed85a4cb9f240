import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { EVERY_ORGANIZATION, type SendScope } from '../../../src/application/ports/repositories/interaction-repository'
import { aConstituent, aHousehold, anOrganization, aNeed, aPartner } from '../../support/builders'
import { minute } from './contract-support'
import { planningSqlite, planOf } from './recording-sqlite'

// docs/api/needs.md "Public intake": what one person was sent in the last hour, in one organization or in every
// one (the deployment's cap), is read from the person's phone or mailbox through the indexes that lead with it
// (constituents_by_phone, constituents_by_email), then the people's needs and those needs' messages: never a
// scan of the people, the needs or the messages of an organization or of the deployment.
const organizations = [anOrganization(), anOrganization()]
const PHONE = '+15550009999'
const EMAIL = 'ana@example.org'

const planning = planningSqlite(async (r) => {
  for (const organization of organizations) {
    const organizationId = organization.id
    await r.organizations.insert(organization)
    const partner = aPartner({ organizationId })
    const household = aHousehold({ organizationId })
    await r.partners.insert(partner)
    await r.constituents.insertHousehold(household)
    for (let n = 0; n < 50; n++) {
      const contact = n === 0 ? { phone: PHONE, email: EMAIL } : { phone: `+1300${1_000_000 + n}`, email: `person${n}@example.org` }
      const person = aConstituent({ organizationId, householdId: household.id, ...contact })
      const need = aNeed({ organizationId, partnerId: partner.id, constituentId: person.id, createdAt: minute(n) })
      await r.constituents.insert(person)
      await r.needs.insert(need)
      for (const channel of ['sms', 'email'] as const) {
        await r.interactions.insert({
          id: randomUUID(),
          organizationId,
          needId: need.id,
          constituentId: person.id,
          channel,
          direction: 'outbound',
          senderIdentifier: 'system',
          createdAt: minute(n),
        })
      }
    }
  }
})

describe('SQLite query plans of the send limits', () => {
  const scopes: Array<[string, SendScope, number]> = [
    ['one organization', organizations[0]!.id, 1],
    ['every organization', EVERY_ORGANIZATION, 2],
  ]
  for (const [name, scope, people] of scopes) {
    test(`texts and mails to one person, in ${name}: searched from the contact's index, nothing scanned`, async () => {
      const { result: texts, statements: textPlans } = await planning.recording.measure((r) =>
        r.interactions.tallyTextsTo(scope, PHONE, minute(0)),
      )
      const { result: mails, statements: mailPlans } = await planning.recording.measure((r) =>
        r.interactions.tallyMailsTo(scope, 'Ana+1@example.org', minute(0)),
      )

      expect([texts.count, mails.count]).toEqual([people, people])
      const [text, mail] = [...textPlans, ...mailPlans].map((statement) => planOf(planning.planner, statement))
      for (const [plan, contact] of [
        [text!, 'constituents_by_phone (phone=?)'],
        [mail!, 'constituents_by_email (email_key=?)'],
      ] as const) {
        expect(plan[0]).toBe('SEARCH interactions USING INDEX interactions_by_need (organization_id=? AND need_id=? AND created_at>?)')
        const of = (table: string) => [...new Set(plan.filter((line) => line.includes(` ${table} `)))]
        expect(of('constituents')).toEqual([`SEARCH constituents USING INDEX ${contact}`])
        expect(of('needs')).toEqual(['SEARCH needs USING COVERING INDEX needs_by_constituent (organization_id=? AND constituent_id=?)'])
        expect(plan.filter((line) => line.startsWith('SCAN'))).toEqual([])
      }
    })
  }
})

// docs/api/needs.md "Reports": the texts of a period, one range of interactions_texts_by_time, the organization's other
// messages not read.
describe('SQLite query plan of the report’s texts', () => {
  test('one range of the organization’s texts by time, whole or a partner’s', async () => {
    const organizationId = organizations[0]!.id
    const { result, statements } = await planning.recording.measure(async (r) => [
      await r.interactions.countTexts(organizationId, minute(10), minute(20)),
      await r.interactions.countTexts(organizationId, minute(10), minute(20), randomUUID()),
    ])

    expect(result).toEqual([[{ direction: 'outbound', texts: 10 }], []])
    for (const statement of statements) {
      const plan = planOf(planning.planner, statement)
      expect(plan[0]).toBe(
        'SEARCH interactions USING INDEX interactions_texts_by_time (organization_id=? AND created_at>? AND created_at<?)',
      )
      expect(plan.filter((line) => line.startsWith('SCAN'))).toEqual([])
    }
  })
})
