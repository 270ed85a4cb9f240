import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import { DEVELOPMENT_OUTBOX_DAYS, LINK_WITHHELD, type UnsentMessage } from '../../domain/messaging/development-outbox'
import { EMAIL } from '../../domain/shared/fields'
import type { AuthenticationPlugin } from './authentication'
import { DateTime, Named, OneOf, PagedList, PageQuery, problems, Uuid } from './common.schemas'
import { pagedResponse } from './paging'

// docs/api/organization.md "Development outbox"

const UnsentMessageSchema = Named(
  'UnsentMessage',
  t.Object({
    id: Uuid,
    channel: OneOf(['email', 'sms'] as const, { description: 'A mail or a text' }),
    kind: t.String({ maxLength: 64, description: "A mail's template (invitation, password_reset, need_notification...); sms for a text" }),
    recipient: t.String({ maxLength: EMAIL.maxLength, description: 'The address or phone number (E.164) it was to' }),
    subject: t.Optional(t.String({ maxLength: 1000, description: "A mail's subject; a text has none" })),
    body: t.String({
      maxLength: 1_000_000,
      description: `The text as it would have been sent; a password reset's link is shown as ${LINK_WITHHELD}`,
    }),
    createdAt: DateTime,
  }),
)

const view = ({ organizationId: _, createdAt, ...message }: UnsentMessage) => ({ ...message, createdAt: createdAt.toISOString() })

export function developmentOutboxRoutes(useCases: UseCases['organizations'], authentication: AuthenticationPlugin) {
  const { listOutbox } = useCases
  return new Elysia({ name: 'development-outbox', prefix: '/api/organizations/outbox', detail: { tags: ['Organization'] } })
    .use(authentication)
    .get('', ({ actor, query, request, set }) => pagedResponse({ query, request, set }, (page) => listOutbox.execute(actor, page), view), {
      auth: true,
      query: t.Object(PageQuery),
      response: { 200: PagedList(UnsentMessageSchema), ...problems(400, 401, 403) },
      detail: {
        operationId: 'listDevelopmentOutbox',
        summary: 'What would have been sent with no provider set, newest first',
        description: `org_admin. The mail of an organization without email settings and the texts while SMS_PROVIDER=log, kept ${DEVELOPMENT_OUTBOX_DAYS} days and erased with the person they were to. Paged.`,
      },
    })
}
