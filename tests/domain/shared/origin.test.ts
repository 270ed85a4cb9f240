import { describe, expect, test } from 'bun:test'
import { linkBaseProblem } from '../../../src/domain/members/invitation'
import { originProblem } from '../../../src/domain/shared/origin'

// docs/api/organization.md "Organization settings": the origins an organization lists, and the link bases they allow.

describe('originProblem', () => {
  test.each([
    'https://app.example.org',
    'https://app.example.org:8443',
    'https://xn--bcher-kva.example',
    'https://[2001:db8::1]',
    'https://127.0.0.1:9000',
  ])('%s is an origin', (origin) => {
    expect(originProblem(origin)).toBeUndefined()
  })

  test.each([
    ['http', 'http://app.example.org'],
    ['a path', 'https://app.example.org/app'],
    ['a trailing slash', 'https://app.example.org/'],
    ['a query', 'https://app.example.org?x=1'],
    ['a fragment', 'https://app.example.org#x'],
    ['the default port', 'https://app.example.org:443'],
    ['upper case', 'https://APP.example.org'],
    ['credentials', 'https://user:pass@app.example.org'],
    ['a unicode host (browsers send its punycode)', 'https://bücher.example'],
    ['no host', 'https://'],
    ['a space', 'https://app example.org'],
    ['another scheme', 'javascript:alert(1)'],
    ['not text', 42],
  ])('%s is refused', (_name, value) => {
    expect(originProblem(value)).toMatch(/^must /)
  })
})

describe('linkBaseProblem', () => {
  const PUBLIC = 'https://intake.example.org'
  const APPS = ['https://staff.example.org']

  test.each([`${PUBLIC}/`, `${PUBLIC}/staff`, 'https://staff.example.org', 'https://staff.example.org/app/'])(
    '%s may be a link base',
    (appUrl) => {
      expect(linkBaseProblem(appUrl, PUBLIC, APPS)).toBeUndefined()
    },
  )

  test.each([
    'https://evil.example',
    'http://staff.example.org',
    'https://staff.example.org:8443',
    'https://staff.example.org@evil.example',
    'https://staff.example.org.evil.example',
    'javascript:alert(1)',
    'not a url',
  ])('%s may not', (appUrl) => {
    expect(linkBaseProblem(appUrl, PUBLIC, APPS)).toContain('appOrigins')
  })

  test('without appOrigins only the service’s own origin is one', () => {
    expect(linkBaseProblem('https://staff.example.org', PUBLIC)).toBeString()
    expect(linkBaseProblem(`${PUBLIC}/x`, PUBLIC)).toBeUndefined()
  })
})
