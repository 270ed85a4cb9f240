import type { Server } from 'bun'

/**
 * The address a request came from: the socket's peer, or the first X-Forwarded-For entry when the
 * service is configured to trust the proxy in front of it (a client could forge the header otherwise).
 */
export function clientAddress(request: Request, server: Server<unknown> | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return server?.requestIP(request)?.address ?? 'unknown'
}
