import { seesPartner, type Actor } from '../../domain/auth/actor'
import { InvalidError, type FieldError } from '../../domain/errors'
import type { Partner } from '../../domain/partners/partner'
import type { Repositories } from '../ports/repositories'

/** The ids a need may point at; each must name a record of the need's organization (docs/api/needs.md "Needs"). */
export interface NeedReferences {
  partnerId?: string
  assignedTo?: string
  parentNeedId?: string
  constituentId?: string
  householdId?: string
}

/**
 * Checks every given reference against the organization and answers the partner (when given) and the
 * household (the constituent's own when not given). All problems are reported at once, as 400s.
 * `actor`, the member naming them (absent on the public intake), narrows the parent need to those it may
 * see: to a partner role, another partner's need is no more a need than an unknown id.
 */
export async function checkNeedReferences(
  r: Repositories,
  organizationId: string,
  refs: NeedReferences,
  actor?: Actor,
): Promise<{ partner?: Partner; householdId?: string }> {
  // Read together: on PostgreSQL, one round trip for all of them.
  const [partner, assignee, parent, constituent, householdFound] = await Promise.all([
    refs.partnerId ? r.partners.findById(organizationId, refs.partnerId) : undefined,
    refs.assignedTo ? r.members.findById(organizationId, refs.assignedTo) : undefined,
    refs.parentNeedId ? r.needs.findById(organizationId, refs.parentNeedId) : undefined,
    refs.constituentId ? r.constituents.findById(organizationId, refs.constituentId) : undefined,
    !refs.constituentId && refs.householdId ? r.constituents.householdExists(organizationId, refs.householdId) : true,
  ])
  const errors: FieldError[] = []
  if (refs.partnerId && !partner) errors.push({ path: '/partnerId', message: 'must name a partner of this organization' })
  if (partner?.isArchived) errors.push({ path: '/partnerId', message: 'names an archived partner, which takes no new needs' })

  if (refs.assignedTo && !assignee) errors.push({ path: '/assignedTo', message: 'must name a member of this organization' })
  if (refs.parentNeedId && (!parent || (actor && !seesPartner(actor, parent.partnerId)))) {
    errors.push({ path: '/parentNeedId', message: 'must name a need of this organization' })
  }

  let householdId = refs.householdId
  if (refs.constituentId) {
    const constituentHousehold = constituent?.householdId
    if (!constituentHousehold) errors.push({ path: '/constituentId', message: 'must name a constituent of this organization' })
    // Its record is kept for the figures only (docs/privacy.md): a person who comes back is registered anew.
    else if (constituent.erasedAt) errors.push({ path: '/constituentId', message: 'names an erased constituent, who takes no new needs' })
    else if (householdId && householdId !== constituentHousehold) {
      errors.push({ path: '/householdId', message: "must be the constituent's household" })
    } else householdId = constituentHousehold
  } else if (!householdFound) {
    errors.push({ path: '/householdId', message: 'must name a household of this organization' })
  }

  if (errors.length > 0) throw new InvalidError('The request names records that cannot be used', errors)
  return { ...(partner ? { partner } : {}), ...(householdId ? { householdId } : {}) }
}
