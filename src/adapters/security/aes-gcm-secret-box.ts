import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { SecretBox } from '../../application/ports/secret-box'

const VERSION = 'v1'

/** AES-256-GCM with a random 96-bit IV per secret: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export class AesGcmSecretBox implements SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key')
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.')
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.')
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('Not a sealed secret')
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
  }
}
