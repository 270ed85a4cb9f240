import type { Repositories } from '../../../src/application/ports/repositories'
import { aConstituent, aHousehold, aMember, aNeed, aPartner } from '../../support/builders'
import { minute } from './contract-support'

/**
 * What the query-plan tests read, on either database: a partner's 300 needs a minute apart, due every ten
 * minutes, a third resolved, and one in ten with an assignee, a person and the person's household. The person's name
 * is no other test's: the constituents' plans of the same database search for theirs.
 */
export async function needsToPlan(r: Repositories, organizationId: string) {
  const partner = aPartner({ organizationId })
  const member = aMember({ organizationId })
  const household = aHousehold({ organizationId })
  const person = aConstituent({ organizationId, householdId: household.id, firstName: 'Yolanda', lastName: 'Mamani' })
  await r.partners.insert(partner)
  await r.members.insert(member)
  await r.constituents.insertHousehold(household)
  await r.constituents.insert(person)
  for (let n = 0; n < 300; n++) {
    const theirs = n % 10 === 0 ? { assignedTo: member.id, constituentId: person.id, householdId: household.id } : {}
    const status = n % 3 === 0 ? 'RESOLVED' : 'NEW'
    await r.needs.insert(aNeed({ organizationId, partnerId: partner.id, status, createdAt: minute(n), dueDate: minute(n * 10), ...theirs }))
  }
  return { partner, member, person }
}
