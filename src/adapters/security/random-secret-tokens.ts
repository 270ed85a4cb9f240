import { createHash, randomBytes } from 'node:crypto'
import type { SecretTokens } from '../../application/ports/secret-tokens'

/** 256 random bits, base64url; stored as SHA-256, which is enough for secrets with that much entropy. */
export class RandomSecretTokens implements SecretTokens {
  generate(): string {
    return randomBytes(32).toString('base64url')
  }

  digest(secret: string): string {
    return createHash('sha256').update(secret).digest('hex')
  }
}
