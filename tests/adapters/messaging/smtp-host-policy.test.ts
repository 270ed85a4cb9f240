import { describe, expect, test } from 'bun:test'
import { SmtpHostPolicy, type ResolveHost } from '../../../src/adapters/messaging/smtp-host-policy'
import { InvalidError } from '../../../src/domain/errors'
import { failureOf, pathsOf } from '../../application/failure-of'

/** DNS as a table; a name it does not hold does not resolve. */
const dns =
  (table: Record<string, string[]>): ResolveHost =>
  async (host) => {
    const addresses = table[host]
    if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`)
    return addresses
  }

const DNS = dns({
  'smtp.example.org': ['93.184.216.34', '2606:4700:4700::1111'],
  'internal.example.org': ['10.0.0.5'],
  'rebind.example.org': ['93.184.216.34', '169.254.169.254'],
  'relay.corp': ['10.1.1.1'],
  '127.0.0.1': ['127.0.0.1'],
  '::1': ['::1'],
})

const smtp = (apiKey: string) => ({ provider: 'smtp' as const, apiKey, fromEmail: 'desk@example.org' })

describe('SmtpHostPolicy', () => {
  test('by default lets every host through as named, without asking DNS (a local relay works)', async () => {
    const policy = new SmtpHostPolicy(undefined, dns({}))
    expect(await policy.addressFor('127.0.0.1')).toBe('127.0.0.1')
    expect(await policy.addressFor('localhost')).toBe('localhost')
    await policy.check(smtp('smtp://u:p@169.254.169.254:25'))
  })

  describe('blocking private hosts', () => {
    const policy = new SmtpHostPolicy({ allowedHosts: [], blockPrivate: true }, DNS)

    test('answers the checked address of a public host, to connect to it and nothing else', async () => {
      expect(await policy.addressFor('smtp.example.org')).toBe('93.184.216.34')
      expect(await policy.addressFor('SMTP.example.org')).toBe('93.184.216.34')
    })

    test.each(['internal.example.org', 'rebind.example.org', '127.0.0.1', '::1', '[::1]', 'nowhere.example.org'])(
      'refuses %s: private, one private address among public ones, loopback, or not resolvable',
      async (host) => {
        expect(await policy.addressFor(host)).toBeUndefined()
      },
    )

    test('check is an InvalidError at /apiKey for a refused SMTP host, and ignores the providers with fixed endpoints', async () => {
      const error = await failureOf(policy.check(smtp('smtp://user:pass@internal.example.org:587')), InvalidError)
      expect(pathsOf(error)).toEqual(['/apiKey'])
      expect(error.message).not.toContain('10.0.0.5')
      await policy.check(smtp('smtps://user:pass@smtp.example.org'))
      await policy.check({ provider: 'postmark', apiKey: 'token', fromEmail: 'desk@example.org' })
    })
  })

  describe('EMAIL_ALLOWED_HOSTS', () => {
    const policy = new SmtpHostPolicy({ allowedHosts: ['relay.corp', 'smtp.example.org'], blockPrivate: true }, DNS)

    test('reaches only the hosts named, and trusts them even when private', async () => {
      expect(await policy.addressFor('relay.corp')).toBe('relay.corp')
      expect(await policy.addressFor('smtp.example.org')).toBe('smtp.example.org')
      expect(await policy.addressFor('internal.example.org')).toBeUndefined()
      expect(
        await new SmtpHostPolicy({ allowedHosts: ['relay.corp'], blockPrivate: false }, DNS).addressFor('smtp.example.org'),
      ).toBeUndefined()
    })
  })
})
