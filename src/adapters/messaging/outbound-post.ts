import { ProviderError } from '../../application/ports/provider-error'
import { InvalidError } from '../../domain/errors'
import type { OutboundHostPolicy } from './smtp-host-policy'

const REFUSED =
  'must name a host this service may reach: not a loopback, private or link-local address, and one of the allowed hosts when the deployment names them'

/** Throws InvalidError at `path` when the deployment's rules refuse the URL's host; nothing is contacted. */
export async function checkAllowedHost(hosts: OutboundHostPolicy, url: string, path: string): Promise<void> {
  if (!(await hosts.addressFor(new URL(url).hostname))) throw InvalidError.field(path, REFUSED)
}

/**
 * Posts to a host the deployment's rules allow, checked at each call. Redirects are not followed (a 3xx is
 * answered as is); for http the connection goes to the address checked, so DNS cannot answer one address to
 * the check and another to the connection. Throws ProviderError under `title` when the rules refuse the host
 * (not retryable) or no answer came (retryable, outcome unknown: the receiver may have taken it).
 */
export async function postToAllowedHost(
  hosts: OutboundHostPolicy,
  title: ProviderError['title'],
  request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number },
): Promise<Response> {
  const url = new URL(request.url)
  const address = await hosts.addressFor(url.hostname)
  if (!address) throw new ProviderError(title, 'the deployment does not allow this host', false)
  const headers = { ...request.headers }
  const target = new URL(url)
  if (url.protocol === 'http:' && address !== url.hostname.replace(/^\[|\]$/g, '').toLowerCase()) {
    headers.host = url.host
    target.hostname = address.includes(':') ? `[${address}]` : address
  }
  try {
    return await fetch(target, {
      method: 'POST',
      headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    })
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError' ? 'the endpoint did not answer in time' : 'the endpoint could not be reached'
    throw new ProviderError(title, reason, true, true)
  }
}
