import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import { problems } from './common.schemas'
import { rateLimited, type RateLimits } from './rate-limits'
import type { RequestSite } from './request-site'
import { FederationMessageBody, PairingAnswerSchema, PairingRequestBody, SignedHeaders } from './referral-partners.schemas'
import { signedBodyOf } from './request-body'

const ANONYMOUS = "Anonymous: called by a referral partner's instance; limited per client address."

/** docs/referrals.md: what partners' instances call, authenticated by a code's secret or a message's signature. */
export function federationRoutes(useCases: UseCases['federation'], rateLimits: RateLimits, requestSite: RequestSite) {
  const { acceptPairing, receive } = useCases

  return (
    new Elysia({ name: 'federation', prefix: '/federation/v1', detail: { tags: ['Federation'] } })
      .use(rateLimits)
      // Instances call these, never browsers: a browser's request from another site is refused as on every anonymous write.
      .use(requestSite)
      .post(
        '/pairings',
        async ({ body, set }) => {
          set.status = 201
          return acceptPairing.execute(body)
        },
        {
          rateLimit: 'federation',
          ownSiteOnly: true,
          body: PairingRequestBody,
          response: rateLimited({ 201: PairingAnswerSchema, ...problems(400, 401, 413, 415) }),
          detail: {
            operationId: 'acceptPairing',
            summary: 'Redeem a pairing code made on this instance',
            description: `${ANONYMOUS} The code's secret is used up; this side answers its key, which must match the code's fingerprint.`,
            security: [],
          },
        },
      )
      .post(
        '/messages',
        ({ headers, request }) =>
          receive.execute(
            { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] },
            signedBodyOf(request),
          ),
        {
          rateLimit: 'federation',
          ownSiteOnly: true,
          headers: SignedHeaders,
          body: FederationMessageBody,
          response: rateLimited({
            200: t.Unknown({ description: "The handler's answer: a request's, or an empty object" }),
            ...problems(400, 401, 409, 413, 415),
          }),
          detail: {
            operationId: 'receiveFederationMessage',
            summary: "Take a signed message from a partner's instance",
            description: `${ANONYMOUS} Signed with Standard Webhooks' asymmetric scheme (\`v1a\`, Ed25519); more than 5 minutes old is 401; an id seen already is answered 200 and changes nothing. A request's answer is its body.`,
            security: [],
          },
        },
      )
  )
}
