import { describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { AesGcmSecretBox } from '../../../src/adapters/security/aes-gcm-secret-box'

const SECRET = 'pm-server-token-4c1d9e7a-UNIQUE-PLAINTEXT'

describe('AesGcmSecretBox', () => {
  const box = new AesGcmSecretBox(randomBytes(32))

  test('opens what it sealed', () => {
    for (const plaintext of [SECRET, 'smtp://user:p%40ss@mail.example.org:587', 'AKIA:wJalr/K7+EXAMPLE:eu-west-1', 'ünïcödé ✓ 🔑', '']) {
      expect(box.open(box.seal(plaintext))).toBe(plaintext)
    }
  })

  test('uses a random IV: sealing the same secret twice gives different texts, both of which open', () => {
    const first = box.seal(SECRET)
    const second = box.seal(SECRET)
    expect(first).not.toBe(second)
    const ivOf = (sealed: string) => sealed.split('.')[1]
    expect(ivOf(first)).not.toBe(ivOf(second))
    expect(Buffer.from(ivOf(first)!, 'base64url')).toHaveLength(12)
    expect(box.open(first)).toBe(SECRET)
    expect(box.open(second)).toBe(SECRET)
  })

  test('the sealed text does not hold the plaintext, in clear or in common encodings', () => {
    const sealed = box.seal(SECRET)
    expect(sealed).not.toContain(SECRET)
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64url'))
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64'))
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('hex'))
    expect(sealed).not.toContain('UNIQUE')
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
  })

  test('another key cannot open it', () => {
    const sealed = box.seal(SECRET)
    expect(() => new AesGcmSecretBox(randomBytes(32)).open(sealed)).toThrow()
  })

  test('a changed ciphertext, tag or IV is refused (authenticated encryption)', () => {
    const [version, iv, tag, ciphertext] = box.seal(SECRET).split('.') as [string, string, string, string]
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url')
      bytes[0] = bytes[0]! ^ 0x01
      return bytes.toString('base64url')
    }
    expect(() => box.open([version, iv, tag, flip(ciphertext)].join('.'))).toThrow()
    expect(() => box.open([version, iv, flip(tag), ciphertext].join('.'))).toThrow()
    expect(() => box.open([version, flip(iv), tag, ciphertext].join('.'))).toThrow()
    // A tag cut short would weaken the check to fewer bits; it is refused rather than compared in part.
    expect(() =>
      box.open([version, iv, Buffer.from(tag, 'base64url').subarray(0, 12).toString('base64url'), ciphertext].join('.')),
    ).toThrow()
    // A ciphertext cut short, or one from another sealed secret under the same IV and tag.
    expect(() => box.open([version, iv, tag, ciphertext.slice(0, -4)].join('.'))).toThrow()
    const other = box.seal('another secret of the same length!!!!!!!!').split('.')[3]!
    expect(() => box.open([version, iv, tag, other].join('.'))).toThrow()
  })

  test('text that is not a sealed secret is refused', () => {
    for (const text of ['', SECRET, 'v2.a.b.c', 'v1.onlyiv', 'v1..tag.ct']) {
      expect(() => box.open(text)).toThrow()
    }
  })

  test('takes only a 256-bit key', () => {
    expect(() => new AesGcmSecretBox(randomBytes(16))).toThrow()
    expect(() => new AesGcmSecretBox(randomBytes(33))).toThrow()
  })
})
