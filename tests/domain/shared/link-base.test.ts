import { describe, expect, test } from 'bun:test'
import { parseLinkBase } from '../../../src/domain/shared/link-base'

// docs/api/access.md "Members and invitations": the base a mailed link is built on (PUBLIC_BASE_URL, an invitation's appUrl).

describe('parseLinkBase', () => {
  test.each([
    ['https://intake.example.org', 'https://intake.example.org/'],
    ['https://intake.example.org/staff/', 'https://intake.example.org/staff/'],
    ['http://localhost:3000', 'http://localhost:3000/'],
    // Parsed as browsers do: the scheme and host lower-cased, the default port dropped.
    ['HTTPS://Intake.Example.ORG:443/Staff', 'https://intake.example.org/Staff'],
    ['hTtP://intake.example.org', 'http://intake.example.org/'],
  ])('%s is a base, parsed as %s', (text, href) => {
    const parsed = parseLinkBase(text)
    expect(parsed).toEqual({ url: new URL(href) })
  })

  test.each([
    // A backslash is a slash to WHATWG parsers (host `allowed`), a user name's character to others (host `evil.example`).
    ['a backslash before @', 'http://allowed\\@evil.example', 'backslash'],
    ['a backslash for a slash', 'https://allowed.example\\evil.example', 'backslash'],
    ['a backslash in the path', 'https://allowed.example/a\\b', 'backslash'],
    ['a user and password', 'http://user:pw@allowed.example/', 'user or password'],
    ['a user', 'https://allowed.example@evil.example', 'user or password'],
    ['an empty user', 'http://@allowed.example', 'user or password'],
    ['an empty password', 'http://:@allowed.example/x', 'user or password'],
    ['a user without slashes', 'http:user@allowed.example', 'user or password'],
    ['a fragment', 'http://allowed.example/#x', 'fragment'],
    ['an empty fragment', 'https://allowed.example/#', 'fragment'],
    ['a query', 'https://allowed.example/join?next=https://evil.example', 'query'],
    ['another scheme', 'javascript:alert(1)', 'http(s) URL'],
    ['a mixed-case other scheme', 'JavaScript:alert(1)', 'http(s) URL'],
    ['a data URL', 'data:text/html,hi', 'http(s) URL'],
    ['ftp', 'ftp://allowed.example/', 'http(s) URL'],
    ['not a URL', 'not a url', 'http(s) URL'],
    ['nothing', '', 'http(s) URL'],
  ])('%s is refused: %s', (_name, text, words) => {
    const parsed = parseLinkBase(text)
    expect('problem' in parsed && parsed.problem).toContain(words)
  })
})
