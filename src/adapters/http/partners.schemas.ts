import { t } from 'elysia'
import type { Partner } from '../../domain/partners/partner'
import { KEYWORD, KEYWORDS, SLA_HOURS } from '../../domain/partners/partner'
import { FREE_TEXT, HTTP_URL, NAME } from '../../domain/shared/fields'
import { Body, DateTime, Int32, List, Named, Text, Uuid } from './common.schemas'

// docs/api/needs.md "Partners"
const SlaHours = Int32(SLA_HOURS, { description: 'SLA turnaround in hours' })
const KEYWORDS_MEAN =
  'Words that route public intake here, in any language (case and accents aside); English and Spanish translations of common words match too'
const Keywords = t.Array(t.String(KEYWORD), { ...KEYWORDS, description: KEYWORDS_MEAN })
const Website = t.String({ ...HTTP_URL, description: 'http(s) URL' })

export const PartnerSchema = Named(
  'Partner',
  t.Object(
    {
      id: Uuid,
      organizationId: Uuid,
      name: Text(NAME),
      slaHours: SlaHours,
      isArchived: t.Boolean(),
      isDefault: t.Boolean(),
      description: t.Optional(Text(FREE_TEXT)),
      keywords: t.Optional(List(Text(KEYWORD), KEYWORDS, { description: KEYWORDS_MEAN })),
      website: t.Optional(Text(HTTP_URL)),
      publicCategoryName: t.Optional(Text(NAME)),
      createdAt: DateTime,
    },
    { description: 'A partner location facility' },
  ),
)

const editable = {
  description: t.Optional(t.String(FREE_TEXT)),
  keywords: t.Optional(Keywords),
  website: t.Optional(Website),
  publicCategoryName: t.Optional(t.String(NAME)),
  isDefault: t.Optional(t.Boolean()),
}

export const CreatePartnerBody = Named('NewPartner', Body({ name: t.String(NAME), slaHours: SlaHours, ...editable }))

export const UpdatePartnerBody = Named(
  'PartnerUpdate',
  Body({
    name: t.Optional(t.String(NAME)),
    slaHours: t.Optional(SlaHours),
    isArchived: t.Optional(t.Boolean()),
    ...editable,
  }),
)

export function partnerView(partner: Partner) {
  return { ...partner, createdAt: partner.createdAt.toISOString() }
}
