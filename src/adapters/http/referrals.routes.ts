import { Elysia, t } from 'elysia'
import type { ReferralMoveName } from '../../application/referrals/move-referral'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, List, PagedList, problems } from './common.schemas'
import { NeedIdOrReferenceParams } from './needs.schemas'
import { pagedResponse } from './paging'
import {
  CompleteBody,
  DeclineBody,
  OfferedServiceSchema,
  ReferralQuery,
  ReferralSchema,
  referralView,
  SendReferralBody,
} from './referrals.schemas'

// docs/referrals.md "Referrals"
const RESPONDER = "The receiver's members who may update needs of the referral's partner."
const SENDER = "The sender's members who may update the need."
const MOVED = { 200: ReferralSchema, ...problems(400, 401, 403, 404, 409) }
const MOVED_WITH_BODY = { 200: ReferralSchema, ...problems(400, 401, 403, 404, 409, 413, 415) }

/** The moves without a body, and what each does. */
const PLAIN_MOVES: Array<[ReferralMoveName, string, string]> = [
  ['accept', 'Accept a referral received', RESPONDER],
  ['start', 'Start work on an accepted referral (in-progress)', RESPONDER],
  ['cancel', 'Cancel a referral sent, before it is completed', SENDER],
]

export function referralsRoutes(useCases: UseCases['referrals'], authentication: AuthenticationPlugin) {
  const { send, list, get, move, revokeConsent, sendAgain, partnerServices } = useCases

  const routes = new Elysia({ name: 'referrals', detail: { tags: ['Referrals'] } })
    .use(authentication)
    .get('/api/referral-partners/:id/services', async ({ actor, params }) => ({ items: await partnerServices.execute(actor, params.id) }), {
      auth: true,
      params: IdParams,
      response: { 200: t.Object({ items: List(OfferedServiceSchema) }), ...problems(400, 401, 403, 404, 502) },
      detail: {
        operationId: 'listPartnerServices',
        summary: "List a referral partner's services that take referrals",
        description: "Who may send referrals. Asked of the partner's instance at once; 502 when it cannot be reached.",
      },
    })
    .post(
      '/api/needs/:id/referrals',
      async ({ actor, params, body, set }) => {
        const { consent, ...rest } = body
        const dates = consent && { ...consent, obtainedAt: new Date(consent.obtainedAt), expiresAt: new Date(consent.expiresAt) }
        set.status = 201
        return referralView(await send.execute(actor, params.id, { ...rest, ...(dates ? { consent: dates } : {}) }))
      },
      {
        auth: true,
        params: NeedIdOrReferenceParams,
        body: SendReferralBody,
        response: { 201: ReferralSchema, ...problems(400, 401, 403, 404, 413, 415) },
        detail: {
          operationId: 'sendReferral',
          summary: 'Refer the need to a partner organization',
          description: `${SENDER} With the person's consent; only the consented contact fields that hold a value, and the note, travel.`,
        },
      },
    )
    .get(
      '/api/referrals',
      ({ actor, query, request, set }) => {
        const { direction, status } = query
        return pagedResponse({ query, request, set }, (page) => list.execute(actor, { direction, status }, page), referralView)
      },
      {
        auth: true,
        query: ReferralQuery,
        response: { 200: PagedList(ReferralSchema), ...problems(400, 401) },
        detail: {
          operationId: 'listReferrals',
          summary: 'List referrals sent and received, newest first',
          description: "Every role; partner roles their partner's. Paged.",
        },
      },
    )
    .get('/api/referrals/:id', async ({ actor, params }) => referralView(await get.execute(actor, params.id)), {
      auth: true,
      params: IdParams,
      response: { 200: ReferralSchema, ...problems(400, 401, 404) },
      detail: { operationId: 'getReferral', summary: 'Read a referral', description: 'Every role; partner roles their partner’s.' },
    })
    .post(
      '/api/referrals/:id/decline',
      async ({ actor, params, body }) => referralView(await move.execute(actor, params.id, 'decline', body)),
      {
        auth: true,
        params: IdParams,
        body: DeclineBody,
        response: MOVED_WITH_BODY,
        detail: { operationId: 'declineReferral', summary: 'Decline a referral received (rejected)', description: RESPONDER },
      },
    )
    .post(
      '/api/referrals/:id/complete',
      async ({ actor, params, body }) => referralView(await move.execute(actor, params.id, 'complete', body)),
      {
        auth: true,
        params: IdParams,
        body: CompleteBody,
        response: MOVED_WITH_BODY,
        detail: { operationId: 'completeReferral', summary: 'Complete a referral, with its outcome', description: RESPONDER },
      },
    )
    .post('/api/referrals/:id/revoke-consent', async ({ actor, params }) => referralView(await revokeConsent.execute(actor, params.id)), {
      auth: true,
      params: IdParams,
      response: MOVED,
      detail: {
        operationId: 'revokeReferralConsent',
        summary: "Revoke the person's consent",
        description: `${SENDER} At any time: the receiver erases the values it took from the referral.`,
      },
    })
    .post('/api/referrals/:id/send-again', async ({ actor, params }) => referralView(await sendAgain.execute(actor, params.id)), {
      auth: true,
      params: IdParams,
      response: MOVED,
      detail: {
        operationId: 'sendReferralAgain',
        summary: 'Send a referral that was not delivered again',
        description: 'Its side: the sender its request, the receiver its last move.',
      },
    })
  return PLAIN_MOVES.reduce(
    (app, [name, summary, description]) =>
      app.post(`/api/referrals/:id/${name}`, async ({ actor, params }) => referralView(await move.execute(actor, params.id, name)), {
        auth: true,
        params: IdParams,
        response: MOVED,
        detail: { operationId: `${name}Referral`, summary, description },
      }),
    routes,
  )
}
