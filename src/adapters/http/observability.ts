import { createHash, timingSafeEqual } from 'node:crypto'
import { Elysia } from 'elysia'
import type { Logger } from '../../application/ports/logger'
import { requestContext, type RequestContext } from '../system/request-context'
import { problemResponse } from './problem'

/** What the HTTP layer reports and shows at /metrics. */
export interface HttpMetrics {
  request(method: string, route: string, status: number, seconds: number): void
  render(): Promise<string>
  readonly contentType: string
}

/** What the access log writes of each request: nothing of the path beyond its template, no query, no header. */
export interface AccessLine {
  method: string
  route: string
  status: number
  durationMs: number
}

/** The access log: a line a request (the service's logger, written its fastest way). */
export interface AccessLog {
  request(line: AccessLine): void
}

/** An access log through any logger, as an `info` line named "request". */
export const accessLogThrough = (logger: Logger): AccessLog => ({ request: (line) => logger.info('request', { ...line }) })

/** A caller's own request id is kept when it is sane; otherwise one is made. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** The route label of a request no route took (unknown paths, and bodies refused before routing). */
const UNMATCHED = 'unmatched'

const digest = (text: string) => createHash('sha256').update(text).digest()

/**
 * Every request runs inside its context (request id, route template, member), so each log line it causes
 * carries its id; when its answer is ready, one access-log line and the request metrics are written. Nothing
 * of the path beyond its template, no query, no header is logged. `GET /metrics` shows the figures, behind
 * METRICS_TOKEN when one is set.
 */
export function observability(accessLog: AccessLog, metrics: HttpMetrics, metricsToken: string | undefined) {
  const expected = metricsToken === undefined ? undefined : digest(`Bearer ${metricsToken}`)
  return new Elysia({ name: 'observability' })
    .wrap((handle) => (request: Request, ...rest: unknown[]) => {
      const given = request.headers.get('x-request-id')
      const context: RequestContext = { requestId: given && REQUEST_ID.test(given) ? given : crypto.randomUUID() }
      const started = performance.now()
      return requestContext.run(context, async () => {
        const response: Response = await (handle as unknown as (request: Request, ...rest: unknown[]) => Response | Promise<Response>)(
          request,
          ...rest,
        )
        const seconds = (performance.now() - started) / 1000
        const route = context.route ?? UNMATCHED
        metrics.request(request.method, route, response.status, seconds)
        accessLog.request({ method: request.method, route, status: response.status, durationMs: Math.round(seconds * 10_000) / 10 })
        return response
      })
    })
    .onRequest(({ set }) => {
      set.headers['x-request-id'] = requestContext.getStore()!.requestId
    })
    .onTransform({ as: 'global' }, ({ route }) => {
      const context = requestContext.getStore()
      if (context) context.route = route
    })
    .get(
      '/metrics',
      async ({ request }) => {
        const given = request.headers.get('authorization')
        if (expected && !(given !== null && timingSafeEqual(digest(given), expected))) {
          return problemResponse('unauthorized', 'GET /metrics needs the METRICS_TOKEN as a bearer token', {
            headers: { 'www-authenticate': 'Bearer realm="metrics"' },
          })
        }
        return new Response(await metrics.render(), { headers: { 'content-type': metrics.contentType } })
      },
      { detail: { hide: true } },
    )
}
