import { withHeaders } from '@elysiajs/openapi'
import type { Server } from 'bun'
import { Elysia, t, type TSchema } from 'elysia'
import type { RateLimiter, RateLimitUse } from '../../application/ports/rate-limiter'
import { TooManyRequestsError } from '../../domain/errors'
import { clientBlockOf } from '../../domain/shared/network-address'
import { clientAddress } from './client-address'
import { Int32, Problem } from './common.schemas'

/** The per-address limits of the anonymous routes. */
export interface AnonymousRateLimiters {
  /** POST /api/needs/public (PUBLIC_INTAKE_RATE_LIMIT per minute). */
  publicIntake: RateLimiter
  /** Login, refresh and accept-invite (AUTH_RATE_LIMIT per minute), besides login's per-email throttle. */
  auth: RateLimiter
  /** The pairings and messages of partners' instances, /federation/v1/* (FEDERATION_RATE_LIMIT per minute). */
  federation: RateLimiter
  /** The published HSDS directories' routes (PUBLIC_DIRECTORY_RATE_LIMIT per minute). */
  publicDirectory: RateLimiter
}

/** The policy names of the RateLimit fields (docs/api/access.md "Rate limits"). */
const POLICY_NAMES: Record<keyof AnonymousRateLimiters, string> = {
  publicIntake: 'public-intake',
  auth: 'auth',
  federation: 'federation',
  publicDirectory: 'public-directory',
}

/**
 * Counts one request of the named limit against its client's block (an IPv6 address by its /64) and puts the RateLimit fields
 * (and Retry-After, when over) on the answer.
 */
export type CountRequest = (
  name: keyof AnonymousRateLimiters,
  request: Request,
  server: Server<unknown> | null,
  set: { headers: Record<string, string | number> },
) => RateLimitUse

/**
 * `rateLimit: 'publicIntake' | 'auth'` on an anonymous route: counts the request against its client address
 * before the body is validated, so a flood of bad requests is limited too. Every answer carries the
 * RateLimit-Policy and RateLimit fields of the IETF httpapi draft; over the limit is 429 with Retry-After.
 * The pages, which answer HTML even when refusing, count with `countRequest` and answer their own 429.
 */
export function rateLimits(limiters: AnonymousRateLimiters, trustProxy: boolean) {
  const countRequest: CountRequest = (name, request, server, set) => {
    const limiter = limiters[name]
    // One client may pick any address of its IPv6 /64: every limit counts the block, as login's throttle does.
    const use = limiter.hit(clientBlockOf(clientAddress(request, server, trustProxy)))
    const policy = `"${POLICY_NAMES[name]}"`
    set.headers['ratelimit-policy'] = `${policy};q=${limiter.limit};w=${limiter.windowSeconds}`
    set.headers.ratelimit = `${policy};r=${use.remaining};t=${use.resetSeconds}`
    if (use.exceeded) set.headers['retry-after'] = String(use.resetSeconds)
    return use
  }
  return new Elysia({ name: 'rate-limits' }).decorate('countRequest', countRequest).macro({
    rateLimit: (name: keyof AnonymousRateLimiters) => ({
      transform({ request, server, set }) {
        const use = countRequest(name, request, server, set)
        if (use.exceeded) throw new TooManyRequestsError(use.resetSeconds)
      },
    }),
  })
}

export type RateLimits = ReturnType<typeof rateLimits>

const RetryAfter = Int32({ minimum: 1, maximum: 3600 }, { description: 'Seconds to wait before trying again' })

/**
 * The 429 of a route limited per member or recipient rather than per address: Retry-After, no RateLimit fields.
 * Made afresh on each call, as `rateLimited` does: one schema object shared by two servers' routes (tests run
 * several in one process) made the second server's document fail.
 */
export function tooManyRequests() {
  return { 429: withHeaders(Problem(429), { 'Retry-After': RetryAfter }) }
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': t.String({
    maxLength: 100,
    description: 'The quota: q requests per w seconds for each client address, e.g. "auth";q=60;w=60',
  }),
  RateLimit: t.String({ maxLength: 100, description: 'What is left of it: r requests for the next t seconds, e.g. "auth";r=59;t=42' }),
}

/**
 * The answers of a rate-limited route for the OpenAPI document: each with the RateLimit fields, and 429 with
 * Retry-After besides (docs/api/access.md "Rate limits").
 */
export function rateLimited<T extends Record<number, TSchema>>(responses: T): T & { 429: ReturnType<typeof Problem> } {
  const all = { ...responses, 429: Problem(429) }
  return Object.fromEntries(
    Object.entries(all).map(([status, schema]) => [
      status,
      withHeaders(schema, {
        ...(schema as { headers?: Record<string, TSchema> }).headers,
        ...RATE_LIMIT_HEADERS,
        ...(status === '429' ? { 'Retry-After': RetryAfter } : {}),
      }),
    ]),
  ) as unknown as T & { 429: ReturnType<typeof Problem> }
}
