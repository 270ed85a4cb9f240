import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import { AUDIT_ACTIONS, AUDIT_COUNTS, AUDIT_RECORD_TYPES, type AuditEvent } from '../../domain/audit/audit-event'
import type { AuthenticationPlugin } from './authentication'
import { Int32, Named, OneOf, PagedList, PageQuery, problems, Uuid } from './common.schemas'
import { pagedResponse } from './paging'

// docs/audit.md
const AuditQuery = t.Object(
  {
    memberId: t.Optional(Uuid),
    recordType: t.Optional(OneOf(AUDIT_RECORD_TYPES)),
    recordId: t.Optional(t.String({ ...Uuid, description: 'With recordType: the events of one record' })),
    action: t.Optional(OneOf(AUDIT_ACTIONS)),
    since: t.Optional(t.String({ format: 'date-time', maxLength: 40, description: 'Events at or after this time' })),
    until: t.Optional(t.String({ format: 'date-time', maxLength: 40, description: 'Events before this time' })),
    ...PageQuery,
  },
  { additionalProperties: false },
)

/** The longest list of field names an event holds: every field of the widest record. */
const MAX_FIELDS = 64

export const AuditEventSchema = Named(
  'AuditEvent',
  t.Object(
    {
      id: Uuid,
      memberId: t.Optional(
        t.String({ ...Uuid, description: 'Who did it; absent when nobody logged in did (public intake, a provider, an operator)' }),
      ),
      action: OneOf(AUDIT_ACTIONS),
      recordType: OneOf(AUDIT_RECORD_TYPES),
      recordId: Uuid,
      at: t.String({ format: 'date-time', maxLength: 40 }),
      requestId: t.Optional(t.String({ maxLength: 64, description: "The request's X-Request-Id" })),
      fields: t.Optional(
        t.Array(t.String({ maxLength: 64 }), {
          maxItems: MAX_FIELDS,
          description: 'Names of the fields changed or read, never their values',
        }),
      ),
      counts: t.Optional(
        t.Object(Object.fromEntries(AUDIT_COUNTS.map((name) => [name, t.Optional(Int32({ minimum: 0, maximum: 2147483647 }))])), {
          additionalProperties: false,
          description:
            'How many records it touched, by kind: a retention run (`apply_retention`) counts the people it erased and the needs whose text it cleared',
        }),
      ),
    },
    { description: 'One write, or one read of a constituent’s personal details' },
  ),
)

function eventView({ organizationId: _organization, at, ...event }: AuditEvent) {
  return { ...event, at: at.toISOString() }
}

export function auditRoutes(useCases: UseCases['audit'], authentication: AuthenticationPlugin) {
  const { list } = useCases
  return new Elysia({ name: 'audit', prefix: '/api/audit-events', detail: { tags: ['Audit'] } }).use(authentication).get(
    '',
    ({ actor, query, request, set }) => {
      const { page: _page, limit: _limit, since, until, ...filter } = query
      return pagedResponse(
        { query, request, set },
        (page) =>
          list.execute(
            actor,
            { ...filter, ...(since ? { since: new Date(since) } : {}), ...(until ? { until: new Date(until) } : {}) },
            page,
          ),
        eventView,
      )
    },
    {
      auth: true,
      query: AuditQuery,
      response: { 200: PagedList(AuditEventSchema), ...problems(400, 401, 403) },
      detail: {
        operationId: 'listAuditEvents',
        summary: "The organization's audit trail, newest first",
        description:
          'org_admin. Every write and every read of a constituent’s personal details, filtered by member, record, action and time. Paged.',
      },
    },
  )
}
