import { describe, expect, test } from 'bun:test'
import { invitationLinkBase, oneTimeLink } from '../../../src/domain/members/invitation'

// docs/api/access.md "Members and invitations": where an invitation link may lead, and how it is built.

const PUBLIC = 'https://intake.example.org'
const APPS = ['https://staff.example.org']
const problemOf = (appUrl: string, appOrigins: readonly string[] = APPS) => {
  const base = invitationLinkBase(appUrl, PUBLIC, appOrigins)
  return 'problem' in base ? base.problem : undefined
}
/** The link as a reader that knows nothing of WHATWG reads its host: between `//` and the next `/`, `?` or `#`, after any `@`. */
const naiveHost = (link: string) => /^[a-z]+:\/\/([^/?#]*)/i.exec(link)![1]!.split('@').at(-1)

describe('invitationLinkBase', () => {
  test.each([`${PUBLIC}/`, `${PUBLIC}/staff`, 'https://staff.example.org', 'https://staff.example.org/app/', 'HTTPS://STAFF.example.org'])(
    '%s may be a link base',
    (appUrl) => {
      expect(problemOf(appUrl)).toBeUndefined()
    },
  )

  test.each([
    'https://evil.example',
    'http://staff.example.org',
    'https://staff.example.org:8443',
    'https://staff.example.org.evil.example',
  ])('%s may not: another origin', (appUrl) => {
    expect(problemOf(appUrl)).toContain('appOrigins')
  })

  test.each([
    ['http://staff.example.org\\@evil.example', 'backslash'],
    ['https://staff.example.org\\@evil.example', 'backslash'],
    ['https://user:pw@staff.example.org/', 'user or password'],
    ['https://staff.example.org@evil.example', 'user or password'],
    ['https://staff.example.org/#x', 'fragment'],
    ['https://staff.example.org/?x=1', 'query'],
    ['javascript:alert(1)', 'http(s) URL'],
    ['not a url', 'http(s) URL'],
  ])('%s may not, even on an allowed origin: %s', (appUrl, words) => {
    // Each of these parses to an allowed origin, or hides one, for some reader.
    expect(problemOf(appUrl, [...APPS, 'http://staff.example.org'])).toContain(words)
  })

  test('without appOrigins only the service’s own origin is one', () => {
    expect(problemOf('https://staff.example.org', [])).toBeString()
    expect(problemOf(`${PUBLIC}/x`, [])).toBeUndefined()
  })
})

describe('oneTimeLink', () => {
  const linkOn = (appUrl: string) => {
    const base = invitationLinkBase(appUrl, PUBLIC, APPS)
    if ('problem' in base) throw new Error(base.problem)
    return oneTimeLink(base.url, 'accept-invite', 'tok_en-1')
  }

  test.each([
    [PUBLIC, `${PUBLIC}/accept-invite?token=tok_en-1`],
    [`${PUBLIC}/`, `${PUBLIC}/accept-invite?token=tok_en-1`],
    [`${PUBLIC}/staff`, `${PUBLIC}/staff/accept-invite?token=tok_en-1`],
    [`${PUBLIC}/staff//`, `${PUBLIC}/staff/accept-invite?token=tok_en-1`],
    // Written from the parsed URL, not the text: lower case, no default port.
    ['HTTPS://Staff.Example.ORG:443/Join', 'https://staff.example.org/Join/accept-invite?token=tok_en-1'],
  ])('on %s is %s', (appUrl, link) => {
    expect(linkOn(appUrl)).toBe(link)
  })

  test('a path that looks like a host stays a path: every reader finds the host that was checked', () => {
    const link = linkOn('https://staff.example.org//evil.example/x')
    expect(naiveHost(link)).toBe('staff.example.org')
    expect(new URL(link).host).toBe('staff.example.org')
  })

  test('the token is encoded as a query value', () => {
    const base = new URL(PUBLIC)
    const link = oneTimeLink(base, 'reset-password', 'a b&c=d/é')
    expect(new URL(link).searchParams.get('token')).toBe('a b&c=d/é')
    expect(`${new URL(link).origin}${new URL(link).pathname}`).toBe(`${PUBLIC}/reset-password`)
  })
})
