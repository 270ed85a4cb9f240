import type { FederationTransport, PeerAnswer } from '../../application/ports/federation'
import { checkAllowedHost, postToAllowedHost } from './outbound-post'
import type { OutboundHostPolicy } from './smtp-host-policy'

/** A partner's instance has this long to answer, as a webhook receiver has. */
const TIMEOUT_MS = 10_000
/** An answer is read up to this size: a partner's instance answers small JSON. */
const MAX_ANSWER_BYTES = 1024 * 1024

/** HTTP to partners' instances under the webhook destination rules (docs/referrals.md "Where messages may go"). */
export class HttpFederationTransport implements FederationTransport {
  constructor(
    private readonly hosts: OutboundHostPolicy,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {}

  async check(url: string, path: string): Promise<void> {
    await checkAllowedHost(this.hosts, url, path)
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<PeerAnswer> {
    const response = await postToAllowedHost(this.hosts, 'Partner instance failed', {
      url,
      headers: { 'content-type': 'application/json', 'user-agent': 'intake-federation', ...headers },
      body,
      timeoutMs: this.timeoutMs,
    })
    const text = await response.text().catch(() => '')
    return { status: response.status, body: text.length > MAX_ANSWER_BYTES ? '' : text }
  }
}
