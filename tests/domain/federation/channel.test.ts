import { describe, expect, test } from 'bun:test'
import { Ed25519FederationKeys } from '../../../src/adapters/security/ed25519-federation-keys'
import { asymmetricSignatures, envelopeOf, isTimely, signatureHeader, signedContent } from '../../../src/domain/federation/channel'
import { decodePairingCode, encodePairingCode } from '../../../src/domain/federation/pairing-code'

const NOW = new Date('2026-03-01T12:00:00.000Z')
const seconds = (at: Date) => String(Math.floor(at.getTime() / 1000))

describe('pairing codes', () => {
  test('a code carries the address, organization, fingerprint, secret and expiry, and reads back', () => {
    const code = { baseUrl: 'https://b.example/intake', organizationId: 'org-b', fingerprint: 'f1', secret: 's1', expiresAt: NOW }
    const text = encodePairingCode(code)
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodePairingCode(text)).toEqual(code)
  })

  test('text that is no code reads as none', () => {
    const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const text of [
      '',
      'not base64 json',
      json([1]),
      json({ u: 'ftp://b.example', o: 'o', f: 'f', s: 's', e: 1 }),
      json({ u: 'https://b.example', o: 'o', f: 'f', s: 's' }),
    ])
      expect(decodePairingCode(text)).toBeUndefined()
  })
})

describe('the timestamp window', () => {
  test('within 5 minutes either way is timely; past that, or no number, is not', () => {
    expect(isTimely(seconds(new Date(NOW.getTime() - 300_000)), NOW)).toBe(true)
    expect(isTimely(seconds(new Date(NOW.getTime() + 300_000)), NOW)).toBe(true)
    expect(isTimely(seconds(new Date(NOW.getTime() - 301_000)), NOW)).toBe(false)
    expect(isTimely(seconds(new Date(NOW.getTime() + 301_000)), NOW)).toBe(false)
    expect(isTimely('1e9', NOW)).toBe(false)
  })
})

describe('signatures', () => {
  const keys = new Ed25519FederationKeys()
  const pair = keys.generate()
  const content = signedContent('msg_1', seconds(NOW), '{"type":"x"}')

  test('a v1a signature verifies with the public key, and with no other key or content', () => {
    const header = `v1,ignored ${signatureHeader(keys.sign(pair.privateKey, content))}`
    const [signature] = asymmetricSignatures(header)
    expect(keys.verify(pair.publicKey, content, signature as string)).toBe(true)
    expect(keys.verify(keys.generate().publicKey, content, signature as string)).toBe(false)
    expect(keys.verify(pair.publicKey, `${content} `, signature as string)).toBe(false)
    expect(keys.verify('not a key', content, signature as string)).toBe(false)
  })

  test('a fingerprint is the SHA-256 of the raw key; a public key is 32 bytes', () => {
    expect(Buffer.from(pair.publicKey, 'base64')).toHaveLength(32)
    expect(keys.fingerprint(pair.publicKey)).toBe(
      new Bun.CryptoHasher('sha256').update(Buffer.from(pair.publicKey, 'base64')).digest('base64url'),
    )
  })

  test('an envelope names its type and pairing; anything else is none', () => {
    expect(envelopeOf('{"type":"a","pairingId":"p","payload":{"n":1}}')).toEqual({ type: 'a', pairingId: 'p', payload: { n: 1 } })
    expect(envelopeOf('{"type":"a"}')).toBeUndefined()
    expect(envelopeOf('[]')).toBeUndefined()
    expect(envelopeOf('nope')).toBeUndefined()
  })
})
