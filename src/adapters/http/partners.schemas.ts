import { t } from 'elysia'
import type { Partner } from '../../domain/partners/partner'
import { SLA_HOURS } from '../../domain/partners/partner'
import { Body, BodyInteger, DateTime, FREE_TEXT, NAME, Uuid } from './common.schemas'

// docs/api.md
const SlaHours = BodyInteger({ minimum: SLA_HOURS.min, maximum: SLA_HOURS.max, description: 'SLA turnaround in hours' })
const Keywords = t.Array(t.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, description: 'Words that route public intake here' })
const Website = t.String({ maxLength: 2000, pattern: '^https?://\\S+$', description: 'http(s) URL' })

export const PartnerSchema = t.Object(
  {
    id: Uuid,
    organizationId: Uuid,
    name: t.String(),
    slaHours: t.Integer(),
    isArchived: t.Boolean(),
    isDefault: t.Boolean(),
    description: t.Optional(t.String()),
    keywords: t.Optional(t.Array(t.String())),
    website: t.Optional(t.String()),
    publicCategoryName: t.Optional(t.String()),
    createdAt: DateTime,
  },
  { description: 'A partner location facility' },
)

const editable = {
  description: t.Optional(t.String(FREE_TEXT)),
  keywords: t.Optional(Keywords),
  website: t.Optional(Website),
  publicCategoryName: t.Optional(t.String(NAME)),
  isDefault: t.Optional(t.Boolean()),
}

export const CreatePartnerBody = Body({ name: t.String(NAME), slaHours: SlaHours, ...editable })

export const UpdatePartnerBody = Body({
  name: t.Optional(t.String(NAME)),
  slaHours: t.Optional(SlaHours),
  isArchived: t.Optional(t.Boolean()),
  ...editable,
})

export function partnerView(partner: Partner) {
  return { ...partner, createdAt: partner.createdAt.toISOString() }
}
