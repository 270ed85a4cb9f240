import { describe, expect, test } from 'bun:test'
import { originProblem } from '../../../src/domain/shared/origin'

// docs/api/organization.md "Organization settings": the origins an organization lists.

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
