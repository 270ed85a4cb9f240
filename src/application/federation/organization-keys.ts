import type { FederationKey } from '../../domain/federation/referral-partner'
import type { Clock } from '../ports/clock'
import type { FederationKeys } from '../ports/federation'
import type { Repositories } from '../ports/repositories'
import type { SecretBox } from '../ports/secret-box'

/** Each organization's Ed25519 key pair (docs/referrals.md): made when first needed, its private key sealed at rest. */
export class OrganizationKeys {
  constructor(
    private readonly keys: FederationKeys,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** The organization's key, made now if it has none (two made at once: the first stored is kept and answered). */
  async of(r: Repositories, organizationId: string): Promise<FederationKey> {
    const kept = await r.federation.findKey(organizationId)
    if (kept) return kept
    const { publicKey, privateKey } = this.keys.generate()
    await r.federation.insertKey({ organizationId, publicKey, sealedPrivateKey: this.box.seal(privateKey), createdAt: this.clock.now() })
    return (await r.federation.findKey(organizationId)) as FederationKey
  }

  sign(key: FederationKey, data: string): string {
    return this.keys.sign(this.box.open(key.sealedPrivateKey), data)
  }

  verify(publicKey: string, data: string, signature: string): boolean {
    return this.keys.verify(publicKey, data, signature)
  }

  fingerprint(publicKey: string): string {
    return this.keys.fingerprint(publicKey)
  }
}
