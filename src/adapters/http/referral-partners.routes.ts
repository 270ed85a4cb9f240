import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, List, problems } from './common.schemas'
import { PairBody, PairingInvitationSchema, ReferralPartnerSchema, referralPartnerView } from './referral-partners.schemas'

const WHO = 'org_admin.'

/** docs/referrals.md "Pairing": the organization's side. */
export function referralPartnersRoutes(useCases: UseCases['federation'], authentication: AuthenticationPlugin) {
  const { createInvitation, pair, list, end } = useCases

  return new Elysia({ name: 'referral-partners', prefix: '/api/referral-partners', detail: { tags: ['Referral partners'] } })
    .use(authentication)
    .get('', async ({ actor }) => ({ items: (await list.execute(actor)).map(referralPartnerView) }), {
      auth: true,
      response: { 200: t.Object({ items: List(ReferralPartnerSchema) }), ...problems(401, 403) },
      detail: {
        operationId: 'listReferralPartners',
        summary: "List the organization's active pairings",
        description: `${WHO} Oldest first.`,
      },
    })
    .post(
      '/invitations',
      async ({ actor, set }) => {
        set.status = 201
        const { code, expiresAt } = await createInvitation.execute(actor)
        return { code, expiresAt: expiresAt.toISOString() }
      },
      {
        auth: true,
        response: { 201: PairingInvitationSchema, ...problems(401, 403) },
        detail: {
          operationId: 'createPairingInvitation',
          summary: 'Make a pairing code for another organization',
          description: `${WHO} Redeemed once, within 24 hours, by the other organization's admin (POST /api/referral-partners).`,
        },
      },
    )
    .post(
      '',
      async ({ actor, body, set }) => {
        set.status = 201
        return referralPartnerView(await pair.execute(actor, body))
      },
      {
        auth: true,
        body: PairBody,
        response: { 201: ReferralPartnerSchema, ...problems(400, 401, 403, 409, 413, 415, 502) },
        detail: {
          operationId: 'pairWithPartner',
          summary: "Redeem another organization's pairing code",
          description: `${WHO} Its instance is asked over HTTP, even when it is this one; 502 when it cannot be reached.`,
        },
      },
    )
    .delete(
      '/:id',
      async ({ actor, params, set }) => {
        await end.execute(actor, params.id)
        set.status = 204
      },
      {
        auth: true,
        params: IdParams,
        response: { 204: t.Void(), ...problems(400, 401, 403, 404) },
        detail: { operationId: 'endPairing', summary: 'End a pairing, on both sides', description: WHO },
      },
    )
}
