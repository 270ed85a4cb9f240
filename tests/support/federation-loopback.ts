import { Ed25519FederationKeys } from '../../src/adapters/security/ed25519-federation-keys'
import type { FederationTransport, PeerAnswer } from '../../src/application/ports/federation'
import { ProviderError } from '../../src/application/ports/provider-error'
import type { UseCases } from '../../src/application/use-cases'

// The partner's instance is this one, reached by a transport that hands each post to the use case its route would call.

const STATUS: Record<string, number> = { unauthorized: 401, invalid: 400, conflict: 409, not_found: 404 }

export class LoopbackTransport implements FederationTransport {
  down = false
  /** Answers pairings with another key than the inviting organization's. */
  otherKey = false
  /** Every post, as sent: one may be posted again as a replay. */
  readonly posts: Array<{ url: string; headers: Record<string, string>; body: string }> = []
  constructor(private readonly useCases: () => UseCases['federation']) {}
  async check() {}
  async post(url: string, headers: Record<string, string>, body: string): Promise<PeerAnswer> {
    this.posts.push({ url, headers, body })
    if (this.down) throw new ProviderError('Partner instance failed', 'the endpoint could not be reached', true, true)
    try {
      if (url.endsWith('/pairings')) {
        const answer = await this.useCases().acceptPairing.execute(JSON.parse(body))
        const publicKey = this.otherKey ? new Ed25519FederationKeys().generate().publicKey : answer.publicKey
        return { status: 201, body: JSON.stringify({ ...answer, publicKey }) }
      }
      const signed = { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] }
      return { status: 200, body: JSON.stringify(await this.useCases().receive.execute(signed, body)) }
    } catch (error) {
      return { status: STATUS[(error as { kind: string }).kind] ?? 500, body: '' }
    }
  }
}
