import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto'
import type { FederationKeys } from '../../application/ports/federation'

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo: what comes before the raw 32 bytes. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')
const RAW_KEY_BYTES = 32

function publicKeyOf(raw: string) {
  const bytes = Buffer.from(raw, 'base64')
  if (bytes.length !== RAW_KEY_BYTES) throw new Error('not an Ed25519 public key')
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, bytes]), format: 'der', type: 'spki' })
}

/** Ed25519 by Node's crypto (docs/referrals.md "The channel"): Standard Webhooks' `v1a` scheme. */
export class Ed25519FederationKeys implements FederationKeys {
  generate() {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519')
    const spki = publicKey.export({ format: 'der', type: 'spki' })
    return {
      publicKey: spki.subarray(SPKI_PREFIX.length).toString('base64'),
      privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    }
  }

  sign(privateKey: string, data: string): string {
    const key = createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' })
    return sign(null, Buffer.from(data), key).toString('base64')
  }

  verify(publicKey: string, data: string, signature: string): boolean {
    try {
      return verify(null, Buffer.from(data), publicKeyOf(publicKey), Buffer.from(signature, 'base64'))
    } catch {
      return false
    }
  }

  fingerprint(publicKey: string): string {
    return createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('base64url')
  }
}
