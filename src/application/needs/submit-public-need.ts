import { InvalidError, NotFoundError } from '../../domain/errors'
import { needFieldErrors, type CustomFields, type Need } from '../../domain/needs/need'
import { assertAcceptsIntakeFrom, type Organization } from '../../domain/organizations/organization'
import { routeByKeywords } from '../../domain/needs/routing'
import type { IntakeChannel, NeedMetrics } from '../ports/metrics'
import type { Repositories } from '../ports/repositories'
import type { CreateUnit, IdempotentCreates } from '../idempotency/idempotent-creates'
import { checkNeedReferences } from './need-references'
import type { NeedIntake, NewNeed } from './need-intake'
import type { RequesterConfirmation } from './requester-confirmation'
import { numbered } from './numbering-need'
import { MAIL_LANGUAGES, type MailLanguage } from '../../domain/members/notifications'
import { FieldChecks } from '../../domain/shared/fields'
import { ANONYMOUS_CALLER } from '../../domain/shared/idempotency'

// docs/api/needs.md "Needs"
export interface PublicNeedInput {
  /** The organization, by id or by slug: one of them, or both naming the same one. */
  organizationId?: string
  organizationSlug?: string
  description: string
  partnerId?: string
  customFields?: CustomFields
  isConfidential?: boolean
  parentNeedId?: string
  constituentId?: string
  householdId?: string
  /** The language the person asked in: its confirmation's (docs/api/needs.md "Public intake"); `en` when absent. */
  language?: MailLanguage
}

/** What an anonymous caller gets back: nothing that tells who else is on file. */
export type PublicNeed = Omit<Need, 'duplicateWarning' | 'constituentId' | 'householdId'>

/** How a public request arrived. */
export interface PublicSubmission {
  /** The other site whose page made a browser send it, if one did (the organization must list it). */
  fromOrigin?: string
  /** The public API, or the intake page's form (for the metrics). */
  channel?: Exclude<IntakeChannel, 'staff'>
  /** A retry with it answers the need the first request made (docs/api/conventions.md "Retrying a create"). */
  idempotencyKey?: string
}

export class SubmitPublicNeed {
  constructor(
    private readonly repositories: Repositories,
    private readonly creates: IdempotentCreates,
    private readonly intake: NeedIntake,
    private readonly confirmation: RequesterConfirmation,
    private readonly metrics: NeedMetrics,
  ) {}

  /** Anonymous: the per-address rate limit is the HTTP adapter's, applied before the body is read. */
  async execute(
    input: PublicNeedInput,
    { fromOrigin, channel = 'public_api', idempotencyKey }: PublicSubmission = {},
  ): Promise<PublicNeed> {
    const organization = await this.organizationOf(input)
    assertAcceptsIntakeFrom(organization, fromOrigin)
    // The caller's own fields keep their limits; the description is stored beside them.
    const language = new FieldChecks().oneOf('/language', input.language, MAIL_LANGUAGES, 'optional').errors
    InvalidError.throwIfAny([...needFieldErrors(input, organization.defaultCountry, 'public'), ...language], 'The need has invalid fields')
    const asked = {
      organizationId: organization.id,
      caller: ANONYMOUS_CALLER,
      operation: 'submit_public_need',
      key: idempotencyKey,
      request: input,
    } as const
    return this.creates.once(
      asked,
      async (unit) => {
        const need = await this.record(organization, input, unit)
        this.metrics.opened(channel)
        return publicView(need)
      },
      async (needId) => publicView((await this.repositories.needs.findById(organization.id, needId)) ?? notFound()),
    )
  }

  private async record(organization: Organization, input: PublicNeedInput, unit: CreateUnit): Promise<Need> {
    const customFields = { ...input.customFields, description: input.description }
    const { need: pending } = await unit.run(async (r) => {
      const checking = checkNeedReferences(r, organization.id, input).then(async ({ partner, householdId }): Promise<NewNeed> => {
        const routed = partner ?? routeByKeywords(input.description, await r.partners.listAll(organization.id))
        if (!routed) throw InvalidError.field('/partnerId', 'this organization has no partner that takes needs')
        return {
          id: unit.recordId,
          organizationId: organization.id,
          partner: routed,
          customFields,
          isConfidential: input.isConfidential ?? false,
          ...(input.parentNeedId ? { parentNeedId: input.parentNeedId } : {}),
          ...(input.constituentId ? { constituentId: input.constituentId } : {}),
          ...(householdId ? { householdId } : {}),
          newPersonJoinsHousehold: false,
        }
      })
      const made = await this.intake.recordWhenChecked(r, organization.id, checking)
      // Only to the contact the need's own new constituent was made of: a text then counts against its number.
      if (!input.constituentId) await this.confirmation.confirm(r, organization, made.need, customFields, input.language ?? 'en')
      return made
    })
    return numbered(pending)
  }

  /** A web form knows the organization's slug, an integration may know its id (docs/api/needs.md "Public intake"). */
  private async organizationOf({ organizationId, organizationSlug }: PublicNeedInput): Promise<Organization> {
    if (organizationId === undefined && organizationSlug === undefined) {
      throw InvalidError.field('/organizationId', 'give organizationId or organizationSlug')
    }
    const byId = organizationId === undefined ? undefined : await this.repositories.organizations.findById(organizationId)
    if (organizationId !== undefined && !byId) throw InvalidError.field('/organizationId', 'must name an existing organization')
    if (organizationSlug === undefined) return byId!
    // A slug the organization left still names it: forms printed or embedded with it keep working.
    const bySlug = await this.repositories.organizations.findByAnySlug(organizationSlug)
    if (!bySlug) throw InvalidError.field('/organizationSlug', 'must name an existing organization')
    if (byId && byId.id !== bySlug.id) throw InvalidError.field('/organizationSlug', 'names another organization than organizationId')
    return bySlug
  }
}

function publicView({ duplicateWarning: _warning, constituentId: _constituent, householdId: _household, ...visible }: Need): PublicNeed {
  return visible
}

function notFound(): never {
  throw new NotFoundError('Need')
}
