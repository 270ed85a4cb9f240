import { t } from 'elysia'
import { BY_DAY, HOURS_DESCRIPTION, SCHEDULE, TIME_OF_DAY, TIME_OF_DAY_MEANING, WEEKDAYS } from '../../domain/services/schedule'
import {
  ADDRESS_LINE,
  LANGUAGE_TAG,
  LANGUAGE_TAG_MEANING,
  LANGUAGES,
  POSTAL_CODE,
  SERVICE_STATUSES,
  TAXONOMY_TERMS,
  type ServiceDetail,
} from '../../domain/services/service'
import { TERM_CODE, VOCABULARY, VOCABULARY_MEANING, type TaxonomyTerm } from '../../domain/services/taxonomy'
import { EMAIL, FREE_TEXT, HTTP_URL, NAME, PHONE } from '../../domain/shared/fields'
import { COUNTRY_CODE, COUNTRY_CODE_MEANING, PHONE_INPUT } from '../../domain/shared/phone'
import { Body, DateTime, List, Named, OneOf, PageQuery, Text, Uuid } from './common.schemas'
import { meaningful } from './validation-messages'

// docs/api/services.md
const Status = OneOf(SERVICE_STATUSES, { description: "HSDS 3.0's service status" })
const Vocabulary = t.String({ ...VOCABULARY, pattern: meaningful(VOCABULARY.pattern, VOCABULARY_MEANING), description: 'The vocabulary' })
const Time = (description: string) =>
  t.String({ ...TIME_OF_DAY, pattern: meaningful(TIME_OF_DAY.pattern, TIME_OF_DAY_MEANING), description })

const HOURS_MEAN = 'Hours on some days of every week (an HSDS schedule, freq WEEKLY)'
const ADDRESS_MEANS = 'Where the service is given: an HSDS physical address'
const byDay = t.Array(OneOf(WEEKDAYS), {
  ...BY_DAY,
  minItems: 1,
  description: 'The days of each week, as iCalendar writes them (HSDS byday)',
})

const OpeningHoursInput = Named(
  'OpeningHoursInput',
  t.Object(
    {
      byDay,
      opensAt: Time('Local time it opens, HH:MM'),
      closesAt: Time('Local time it closes, HH:MM, after opensAt'),
      description: t.Optional(t.String({ ...HOURS_DESCRIPTION, description: 'A note on these hours' })),
    },
    { additionalProperties: false, description: HOURS_MEAN },
  ),
)

const OpeningHoursSchema = Named(
  'OpeningHours',
  t.Object(
    { byDay, opensAt: Text(TIME_OF_DAY), closesAt: Text(TIME_OF_DAY), description: t.Optional(Text(HOURS_DESCRIPTION)) },
    { description: HOURS_MEAN },
  ),
)

const AddressInput = Named(
  'ServiceAddressInput',
  t.Object(
    {
      address1: t.String(ADDRESS_LINE),
      city: t.String(ADDRESS_LINE),
      stateProvince: t.String(ADDRESS_LINE),
      postalCode: t.String(POSTAL_CODE),
      country: t.String({
        ...COUNTRY_CODE,
        pattern: meaningful(COUNTRY_CODE.pattern, COUNTRY_CODE_MEANING),
        description: 'ISO 3166-1 alpha-2',
      }),
    },
    { additionalProperties: false, description: ADDRESS_MEANS },
  ),
)

const AddressSchema = Named(
  'ServiceAddress',
  t.Object(
    {
      address1: Text(ADDRESS_LINE),
      city: Text(ADDRESS_LINE),
      stateProvince: Text(ADDRESS_LINE),
      postalCode: Text(POSTAL_CODE),
      country: Text(COUNTRY_CODE, { description: 'ISO 3166-1 alpha-2' }),
    },
    { description: ADDRESS_MEANS },
  ),
)

const TermReferenceSchema = Named(
  'TaxonomyTermReference',
  t.Object({ vocabulary: Vocabulary, code: t.String(TERM_CODE) }, { additionalProperties: false, description: 'An imported term' }),
)

export const TaxonomyTermSchema = Named(
  'TaxonomyTerm',
  t.Object(
    {
      id: Uuid,
      vocabulary: Text(VOCABULARY),
      code: Text(TERM_CODE),
      name: Text(NAME),
      description: t.Optional(Text(FREE_TEXT)),
    },
    { description: 'A term of a vocabulary the organization imported' },
  ),
)

const ACCEPTING_MEANS = 'Whether the service takes referrals now (its capacity): an extension of HSDS'
const CLEARS = 'null clears it'

export const ServiceSchema = Named(
  'Service',
  t.Object(
    {
      id: Uuid,
      partnerId: Uuid,
      name: Text(NAME),
      description: t.Optional(Text(FREE_TEXT)),
      status: Status,
      eligibility: t.Optional(Text(FREE_TEXT, { description: 'Who may receive the service' })),
      languages: List(Text(LANGUAGE_TAG), LANGUAGES, { description: 'BCP 47 language tags, canonical' }),
      schedule: List(OpeningHoursSchema, SCHEDULE),
      fees: t.Optional(Text(FREE_TEXT)),
      applicationProcess: t.Optional(Text(FREE_TEXT)),
      url: t.Optional(Text(HTTP_URL)),
      email: t.Optional(Text(EMAIL)),
      phone: t.Optional(Text(PHONE, { description: 'E.164' })),
      address: t.Optional(AddressSchema),
      acceptingReferrals: t.Boolean({ description: ACCEPTING_MEANS }),
      taxonomyTerms: List(TaxonomyTermSchema, TAXONOMY_TERMS, { description: 'Its terms, with their names as last imported' }),
      isArchived: t.Boolean(),
      createdAt: DateTime,
      updatedAt: DateTime,
    },
    { description: 'What a partner offers: an HSDS 3.0 service' },
  ),
)

const Clearable = <T extends Parameters<typeof t.Optional>[0]>(schema: T) => t.Optional(t.Union([schema, t.Null()]))

const editable = {
  description: Clearable(t.String({ ...FREE_TEXT, description: `What the service does; ${CLEARS}` })),
  status: t.Optional(Status),
  eligibility: Clearable(t.String({ ...FREE_TEXT, description: `Who may receive the service; ${CLEARS}` })),
  languages: t.Optional(t.Array(t.String({ ...LANGUAGE_TAG, description: LANGUAGE_TAG_MEANING }), LANGUAGES)),
  schedule: t.Optional(t.Array(OpeningHoursInput, SCHEDULE)),
  fees: Clearable(t.String(FREE_TEXT)),
  applicationProcess: Clearable(t.String(FREE_TEXT)),
  url: Clearable(t.String({ ...HTTP_URL, description: 'http(s) URL' })),
  email: Clearable(t.String(EMAIL)),
  phone: Clearable(
    t.String({
      ...PHONE_INPUT,
      description: "Kept and answered in E.164; international form or a national number of the organization's defaultCountry",
    }),
  ),
  address: Clearable(AddressInput),
  acceptingReferrals: t.Optional(t.Boolean({ description: ACCEPTING_MEANS })),
  taxonomyTerms: t.Optional(
    t.Array(TermReferenceSchema, { ...TAXONOMY_TERMS, description: 'Terms imported before (400 naming an unknown one)' }),
  ),
}

export const CreateServiceBody = Named('NewService', Body({ partnerId: Uuid, name: t.String(NAME), ...editable }))

export const UpdateServiceBody = Named(
  'ServiceUpdate',
  Body({ partnerId: t.Optional(Uuid), name: t.Optional(t.String(NAME)), isArchived: t.Optional(t.Boolean()), ...editable }),
)

export const ServiceQuery = t.Object(
  {
    partnerId: t.Optional(t.String({ format: 'uuid', maxLength: 36, description: "Only this partner's services" })),
    status: t.Optional(Status),
    includeArchived: t.Optional(t.Boolean({ default: false, description: 'true: archived services too' })),
    ...PageQuery,
  },
  { additionalProperties: false },
)

export const TermQuerySchema = t.Object(
  {
    vocabulary: t.Optional(Vocabulary),
    q: t.Optional(t.String({ minLength: 1, maxLength: 100, description: 'Words of the code or name, case aside' })),
    ...PageQuery,
  },
  { additionalProperties: false },
)

export const TermImportQuery = t.Object(
  {
    vocabulary: Vocabulary,
    dryRun: t.Optional(
      t.Boolean({ default: false, description: 'true: check the file and answer what an import would do, storing nothing' }),
    ),
  },
  { additionalProperties: false },
)

export function serviceView({ organizationId: _organizationId, ...service }: ServiceDetail) {
  return {
    ...service,
    taxonomyTerms: service.taxonomyTerms.map(termView),
    createdAt: service.createdAt.toISOString(),
    updatedAt: service.updatedAt.toISOString(),
  }
}

export function termView({ organizationId: _organizationId, ...term }: TaxonomyTerm) {
  return term
}
