import { t } from 'elysia'
import type { Partner } from '../../domain/partners/partner'
import { KEYWORD, KEYWORDS, SLA_HOURS } from '../../domain/partners/partner'
import { FREE_TEXT, HTTP_URL, NAME } from '../../domain/shared/fields'
import { Body, BodyInteger, DateTime, Uuid } from './common.schemas'

// docs/api.md
const SlaHours = BodyInteger({ ...SLA_HOURS, description: 'SLA turnaround in hours' })
const Keywords = t.Array(t.String(KEYWORD), { ...KEYWORDS, description: 'Words that route public intake here' })
const Website = t.String({ ...HTTP_URL, description: 'http(s) URL' })

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
