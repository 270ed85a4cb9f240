import { lookup } from 'node:dns/promises'
import type { EmailHostPolicy } from '../../application/ports/email'
import { InvalidError } from '../../domain/errors'
import type { EmailProviderSettings } from '../../domain/messaging/email'
import { isPublicAddress } from '../../domain/shared/network-address'

/** Where the service may connect on an organization's behalf (SMTP hosts, webhook endpoints). */
export interface HostRules {
  /** EMAIL_ALLOWED_HOSTS, WEBHOOK_ALLOWED_HOSTS: when not empty, the only hosts allowed (names or addresses, lower-case). */
  allowedHosts: readonly string[]
  /** EMAIL_BLOCK_PRIVATE_HOSTS, WEBHOOK_BLOCK_PRIVATE_HOSTS: refuse hosts that are, or resolve to, anything but public addresses. */
  blockPrivate: boolean
}

/** Every address a host name resolves to (an address resolves to itself). */
export type ResolveHost = (host: string) => Promise<string[]>

const resolveWithDns: ResolveHost = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

const REFUSED =
  'must name an SMTP host this service may reach: not a loopback, private or link-local address, and one of the allowed hosts when the deployment names them'

/**
 * Which hosts an organization may make the service connect to, so a hosted deployment can keep
 * organizations off its own network. The check resolves the name once and the caller connects to the
 * address checked, so a second answer from DNS (rebinding) cannot slip a private address in between.
 */
export class OutboundHostPolicy {
  private readonly allowed: ReadonlySet<string>

  constructor(
    private readonly rules: HostRules = { allowedHosts: [], blockPrivate: false },
    private readonly resolve: ResolveHost = resolveWithDns,
  ) {
    this.allowed = new Set(rules.allowedHosts)
  }

  /** The address to connect to for `hostname`, or undefined when the rules refuse it. */
  async addressFor(hostname: string): Promise<string | undefined> {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
    const named = this.allowed.has(host)
    if (this.allowed.size > 0 && !named) return undefined
    // A host the operator named is trusted as it resolves; without the block, a local relay must work as is.
    if (named || !this.rules.blockPrivate) return host
    const addresses = await this.resolve(host).catch(() => [])
    return addresses.length > 0 && addresses.every(isPublicAddress) ? addresses[0] : undefined
  }
}

/** Where an organization's SMTP settings may connect. The other providers have fixed public endpoints; SMTP takes any host. */
export class SmtpHostPolicy extends OutboundHostPolicy implements EmailHostPolicy {
  async check(settings: EmailProviderSettings): Promise<void> {
    if (settings.provider !== 'smtp') return
    if (!(await this.addressFor(new URL(settings.apiKey).hostname))) throw InvalidError.field('/apiKey', REFUSED)
  }
}
