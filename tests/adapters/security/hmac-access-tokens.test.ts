import { describe, expect, test } from 'bun:test'
import { HmacAccessTokens } from '../../../src/adapters/security/hmac-access-tokens'
import { FixedClock } from '../../support/fixed-clock'

const SECRET = 'a secret of the service that is at least 32 characters'
const claimsOf = () => ({ memberId: crypto.randomUUID(), organizationId: crypto.randomUUID(), sessionId: crypto.randomUUID() })

// A checked token is kept with its claims, so the next request that brings it skips the HMAC: what it
// may skip must never let a changed or expired token through.
describe('HMAC access tokens, checked once and kept', () => {
  test('a kept token is refused as expired once its 15 minutes are over', () => {
    const clock = new FixedClock()
    const tokens = new HmacAccessTokens(SECRET, clock)
    const claims = claimsOf()
    const token = tokens.issue(claims)
    const verified = { ...claims, expiresAt: new Date(Math.floor(clock.now().getTime() / 1000) * 1000 + tokens.lifetimeSeconds * 1000) }
    expect(tokens.verify(token)).toEqual(verified)
    clock.advance(tokens.lifetimeSeconds * 1000 - 1)
    expect(tokens.verify(token)).toEqual(verified)
    clock.advance(1)
    expect(tokens.verify(token)).toBe('expired')
  })

  test('any change to a kept token, in any character, is checked in full and refused', () => {
    const tokens = new HmacAccessTokens(SECRET, new FixedClock())
    const token = tokens.issue(claimsOf())
    expect(typeof tokens.verify(token)).toBe('object')
    for (let at = 0; at < token.length; at++) {
      const changed = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1)
      if (changed === token) continue
      expect(tokens.verify(changed)).toBe('invalid')
    }
    expect(tokens.verify(`${token}x`)).toBe('invalid')
  })

  test('a token signed with another secret is refused, though the same claims are kept under ours', () => {
    const clock = new FixedClock()
    const ours = new HmacAccessTokens(SECRET, clock)
    const theirs = new HmacAccessTokens('another secret, also at least 32 characters', clock)
    const claims = claimsOf()
    expect(ours.verify(ours.issue(claims))).toMatchObject(claims)
    expect(ours.verify(theirs.issue(claims))).toBe('invalid')
  })

  test('past the tokens kept, the first ones are checked again and still accepted, and still refused when changed', () => {
    const tokens = new HmacAccessTokens(SECRET, new FixedClock())
    const issued = Array.from({ length: 5000 }, () => {
      const claims = claimsOf()
      return { claims, token: tokens.issue(claims) }
    })
    for (const { token } of issued) tokens.verify(token)
    for (const { claims, token } of issued.slice(0, 10)) {
      expect(tokens.verify(token)).toMatchObject(claims)
      expect(tokens.verify(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBe('invalid')
    }
  })
})
