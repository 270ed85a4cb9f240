import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { MaskedEmailSettings } from '../../application/organizations/email-settings'
import type { OrganizationSettings } from '../../application/organizations/organization-settings'
import { API_KEY, EMAIL_KEY_FORMATS, EMAIL_PROVIDERS, type EmailKeyFormat } from '../../domain/messaging/email'
import {
  DEFAULT_MAX_CONCURRENCY,
  MAX_CONCURRENCY,
  RETENTION_DAYS,
  SHORT_CODE,
  SLUG,
  TCR_STATUS,
} from '../../domain/organizations/organization'
import { AUDIT_RETENTION_DAYS, DEFAULT_AUDIT_RETENTION_DAYS } from '../../domain/audit/audit-event'
import { EMAIL, FREE_TEXT, HTTP_URL, NAME, PHONE } from '../../domain/shared/fields'
import { PROVIDER_MESSAGE_ID } from '../../domain/messaging/sms'
import type { AuthenticationPlugin } from './authentication'
import { Body, DateTime, Int32, List, Named, OneOf, problems, Text, Uuid } from './common.schemas'
import { ORIGIN, ORIGIN_LIST } from '../../domain/shared/origin'
import { DEFAULT_DIGEST_HOUR, DEFAULT_TIME_ZONE, DIGEST_HOUR, TIME_ZONE } from '../../domain/organizations/digest-schedule'
import { COUNTRY_CODE, COUNTRY_CODE_MEANING, DEFAULT_COUNTRY } from '../../domain/shared/phone'
import { meaningful } from './validation-messages'

// docs/api/organization.md "Organization settings"
const APP_ORIGINS =
  'Origins (https://host[:port]) of the organization’s own apps that invitation links may point at (`appUrl`), besides PUBLIC_BASE_URL'
const FORM_ORIGINS = 'Origins (https://host[:port]) of partner sites whose pages may make a browser post the public intake'
const REPLACES = '; a list given replaces the one kept, [] empties it'
const DIGEST_HOUR_MEANS = 'The local hour (0 to 23) from which members get their daily digest'
const TIME_ZONE_MEANS =
  "The organization's IANA time zone (America/Chicago, Europe/Madrid, UTC): its days, those of the daily digest's hour and of the reports"
const DIGEST_TIME_ZONE_MEANS = 'Deprecated: the former name of timeZone, answered with the same value and taken when timeZone is not given'
const DEFAULT_COUNTRY_MEANS =
  'The country (ISO 3166-1 alpha-2) whose national phone numbers are read as typed: 503 555 0142 is +15035550142 for US'
const CONFIRM_REQUESTS_MEANS =
  'Whether a person who asks through the public intake is sent its reference number and what happens next (a text, or an email when only an email is given)'

const CONSTITUENT_RETENTION =
  'Days a person with no need activity is kept: the worker then erases them as POST /api/constituents/{id}/erase does; absent: kept'
const NEED_TEXT_RETENTION =
  "Days a resolved need that nobody changed keeps its free text: the worker then empties its customFields and its notes' and texts' content; absent: kept"
const CLEARS = '; null stops it'
const PUBLISH_DIRECTORY_MEANS =
  "Whether the organization's directory of services is published, anonymous and read-only, as HSDS 3.0 under /hsds/{slug}"
const DESCRIPTION_MEANS = 'What the organization does, in its own words: the description its directory of services publishes'

const SettingsSchema = Named(
  'OrganizationSettings',
  t.Object({
    id: Uuid,
    name: Text(NAME),
    slug: Text(SLUG),
    shortCode: t.Optional(Text(SHORT_CODE)),
    maxConcurrency: Int32(MAX_CONCURRENCY),
    tcrStatus: t.Optional(Text(TCR_STATUS)),
    description: t.Optional(Text(FREE_TEXT, { description: DESCRIPTION_MEANS })),
    phoneNumber: t.Optional(Text(PHONE)),
    auditRetentionDays: Int32(AUDIT_RETENTION_DAYS, { description: 'Days audit events are kept' }),
    constituentRetentionDays: t.Optional(Int32(RETENTION_DAYS, { description: CONSTITUENT_RETENTION })),
    needTextRetentionDays: t.Optional(Int32(RETENTION_DAYS, { description: NEED_TEXT_RETENTION })),
    appOrigins: List(Text(ORIGIN), ORIGIN_LIST, { description: APP_ORIGINS }),
    formOrigins: List(Text(ORIGIN), ORIGIN_LIST, { description: FORM_ORIGINS }),
    digestHour: Int32(DIGEST_HOUR, { description: DIGEST_HOUR_MEANS }),
    timeZone: Text(TIME_ZONE, { description: TIME_ZONE_MEANS }),
    digestTimeZone: t.String({ maxLength: TIME_ZONE.maxLength, description: DIGEST_TIME_ZONE_MEANS, deprecated: true }),
    defaultCountry: Text(COUNTRY_CODE, { description: DEFAULT_COUNTRY_MEANS }),
    confirmRequests: t.Boolean({ description: CONFIRM_REQUESTS_MEANS }),
    publishDirectory: t.Boolean({ description: PUBLISH_DIRECTORY_MEANS }),
    publicBaseUrl: t.String({
      ...HTTP_URL,
      description: "The service's PUBLIC_BASE_URL (read-only, the deployment's): where the links in mail point",
    }),
  }),
)

const UpdateSettingsBody = Named(
  'OrganizationSettingsUpdate',
  Body({
    name: t.Optional(t.String(NAME)),
    slug: t.Optional(t.String({ ...SLUG, description: 'Lowercase letters, digits, single hyphens' })),
    shortCode: t.Optional(t.Union([t.String({ ...SHORT_CODE, description: '4 to 6 uppercase letters' }), t.Null()])),
    maxConcurrency: t.Optional(
      Int32(MAX_CONCURRENCY, { description: `SMS messages in flight at once (default ${DEFAULT_MAX_CONCURRENCY})` }),
    ),
    tcrStatus: t.Optional(t.Union([t.String(TCR_STATUS), t.Null()])),
    description: t.Optional(t.Union([t.String({ ...FREE_TEXT, description: `${DESCRIPTION_MEANS}; null clears it` }), t.Null()])),
    constituentRetentionDays: t.Optional(t.Union([Int32(RETENTION_DAYS, { description: CONSTITUENT_RETENTION + CLEARS }), t.Null()])),
    needTextRetentionDays: t.Optional(t.Union([Int32(RETENTION_DAYS, { description: NEED_TEXT_RETENTION + CLEARS }), t.Null()])),
    auditRetentionDays: t.Optional(
      Int32(AUDIT_RETENTION_DAYS, { description: `Days audit events are kept (default ${DEFAULT_AUDIT_RETENTION_DAYS})` }),
    ),
    appOrigins: t.Optional(t.Array(t.String(ORIGIN), { ...ORIGIN_LIST, description: APP_ORIGINS + REPLACES })),
    formOrigins: t.Optional(t.Array(t.String(ORIGIN), { ...ORIGIN_LIST, description: FORM_ORIGINS + REPLACES })),
    digestHour: t.Optional(Int32(DIGEST_HOUR, { description: `${DIGEST_HOUR_MEANS} (default ${DEFAULT_DIGEST_HOUR})` })),
    timeZone: t.Optional(t.String({ ...TIME_ZONE, description: `${TIME_ZONE_MEANS} (default ${DEFAULT_TIME_ZONE})` })),
    digestTimeZone: t.Optional(t.String({ ...TIME_ZONE, description: DIGEST_TIME_ZONE_MEANS, deprecated: true })),
    defaultCountry: t.Optional(
      t.String({
        ...COUNTRY_CODE,
        pattern: meaningful(COUNTRY_CODE.pattern, COUNTRY_CODE_MEANING),
        description: `${DEFAULT_COUNTRY_MEANS} (${DEFAULT_COUNTRY} for an organization made before it)`,
      }),
    ),
    confirmRequests: t.Optional(t.Boolean({ description: `${CONFIRM_REQUESTS_MEANS} (default false)` })),
    publishDirectory: t.Optional(t.Boolean({ description: `${PUBLISH_DIRECTORY_MEANS} (default false)` })),
  }),
)

// Each provider's key shape, from its record: in the description for people, in `x-shapes` for the console's hint.
const KEY_SHAPES = Object.fromEntries(
  EMAIL_PROVIDERS.flatMap((p) => {
    const { shape }: EmailKeyFormat = EMAIL_KEY_FORMATS[p]
    return shape ? [[p, shape]] : []
  }),
)
const KEY_SHAPES_MEAN = Object.entries(KEY_SHAPES).map(([provider, shape]) => `${shape} for ${provider}`)

const emailFields = {
  provider: OneOf(EMAIL_PROVIDERS),
  apiKey: t.Optional(
    t.String({
      ...API_KEY,
      description: `Secret: ${KEY_SHAPES_MEAN.join(', ')}, the provider's API key for the others. Left out: the key stored for the same provider (400 when none is)`,
      'x-shapes': KEY_SHAPES,
    }),
  ),
  fromEmail: t.String(EMAIL),
  fromName: t.Optional(t.String(NAME)),
}

const MaskedEmailSchema = Named(
  'EmailSettings',
  t.Object({
    provider: OneOf(EMAIL_PROVIDERS),
    fromEmail: Text(EMAIL),
    fromName: t.Optional(Text(NAME)),
    apiKeyLast4: t.String({ maxLength: 4 }),
    updatedAt: DateTime,
  }),
)

function maskedJson(settings: MaskedEmailSettings) {
  return { ...settings, updatedAt: settings.updatedAt.toISOString() }
}

export function organizationsRoutes(useCases: UseCases['organizations'], authentication: AuthenticationPlugin, publicBaseUrl: string) {
  const { getSettings, updateSettings, getEmail, updateEmail, testEmail } = useCases
  // digestTimeZone, timeZone's former name, is still answered and taken (docs/api/organization.md).
  const answered = async (settings: Promise<OrganizationSettings>) => {
    const read = await settings
    return { ...read, digestTimeZone: read.timeZone, publicBaseUrl }
  }

  return new Elysia({ name: 'organizations', prefix: '/api/organizations/settings', detail: { tags: ['Organization'] } })
    .use(authentication)
    .get('', ({ actor }) => answered(getSettings.execute(actor)), {
      auth: true,
      response: { 200: SettingsSchema, ...problems(401, 403) },
      detail: { operationId: 'getOrganizationSettings', summary: 'Organization settings', description: 'org_admin.' },
    })
    .put(
      '',
      ({ actor, body }) => {
        const { digestTimeZone, ...fields } = body
        return answered(updateSettings.execute(actor, { ...(digestTimeZone ? { timeZone: digestTimeZone } : {}), ...fields }))
      },
      {
        auth: true,
        body: UpdateSettingsBody,
        response: { 200: SettingsSchema, ...problems(400, 401, 403, 409, 413, 415) },
        detail: {
          operationId: 'updateOrganizationSettings',
          summary: 'Update organization settings; a slug or short code of another organization is 409',
          description: 'org_admin. The short code changes the prefix of new reference numbers only.',
        },
      },
    )
    .get('/email', async ({ actor }) => maskedJson(await getEmail.execute(actor)), {
      auth: true,
      response: { 200: MaskedEmailSchema, ...problems(401, 403, 404) },
      detail: {
        operationId: 'getEmailSettings',
        summary: 'Email settings, the key masked; 404 while mail goes to the fallback',
        description: 'org_admin. The key is never answered: only its last four characters.',
      },
    })
    .put('/email', async ({ actor, body }) => maskedJson(await updateEmail.execute(actor, body)), {
      auth: true,
      body: Named('EmailSettingsUpdate', Body(emailFields)),
      response: { 200: MaskedEmailSchema, ...problems(400, 401, 403, 413, 415) },
      detail: {
        operationId: 'updateEmailSettings',
        summary: 'Set the email provider; the key is stored encrypted and never returned',
        description: 'org_admin. SMTP hosts may be restricted by the deployment.',
      },
    })
    .post('/email/test', ({ actor, body }) => testEmail.execute(actor, body), {
      auth: true,
      body: Body({ ...emailFields, toEmail: emailFields.fromEmail }),
      response: {
        200: t.Object({
          delivered: t.Literal(true),
          messageId: t.Optional(Text(PROVIDER_MESSAGE_ID, { description: "The provider's id of the message" })),
        }),
        ...problems(400, 401, 403, 413, 415, 502),
      },
      detail: {
        operationId: 'testEmailSettings',
        summary: 'Send one real message with the proposed settings; nothing is stored',
        description: "org_admin. 502 with the provider's reason, secrets removed, when the provider refuses.",
      },
    })
}
