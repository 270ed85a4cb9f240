import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig, loadDatabaseConfig } from '../../src/main/config'

const load = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'memory:', ...env })

describe('email host settings', () => {
  test('by default every SMTP host may be reached (a local relay works)', () => {
    expect(load({})).toMatchObject({ emailAllowedHosts: [], emailBlockPrivateHosts: false })
  })

  test('EMAIL_ALLOWED_HOSTS is a comma list of names and addresses, lower-cased; EMAIL_BLOCK_PRIVATE_HOSTS true or false', () => {
    const config = load({ EMAIL_ALLOWED_HOSTS: ' Relay.Example.org, 10.0.0.5 ,::1,', EMAIL_BLOCK_PRIVATE_HOSTS: 'true' })
    expect(config).toMatchObject({ emailAllowedHosts: ['relay.example.org', '10.0.0.5', '::1'], emailBlockPrivateHosts: true })
  })

  test.each([
    ['EMAIL_ALLOWED_HOSTS', 'smtp://relay.example.org'],
    ['EMAIL_ALLOWED_HOSTS', 'relay example'],
    ['EMAIL_BLOCK_PRIVATE_HOSTS', 'yes'],
  ])('%s=%s stops the start with a message naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError)
    expect(() => load({ [name]: value })).toThrow(name)
  })
})

describe('METRICS_TOKEN', () => {
  test('is optional, and kept when given', () => {
    expect(load({}).metricsToken).toBeUndefined()
    expect(load({ METRICS_TOKEN: 'a-long-enough-token!' }).metricsToken).toBe('a-long-enough-token!')
  })

  test.each(['short', 'has spaces in it, long enough'])('%p stops the start with a message naming it', (value) => {
    expect(() => load({ METRICS_TOKEN: value })).toThrow('METRICS_TOKEN')
  })
})

describe('PostgreSQL', () => {
  const url = 'postgres://intake@db.example.org/intake'

  test('DATABASE_QUERY_TIMEOUT_MS is the deadline of a unit of work, 10 s unless set', () => {
    expect(loadDatabaseConfig({ DATABASE_URL: url })).toEqual({ kind: 'postgres', url, queryTimeoutMs: 10_000 })
    expect(loadDatabaseConfig({ DATABASE_URL: url, DATABASE_QUERY_TIMEOUT_MS: '2500' })).toMatchObject({ queryTimeoutMs: 2500 })
  })

  test.each(['0', '99', 'ten', '600001'])('DATABASE_QUERY_TIMEOUT_MS=%p stops the start with a message naming it', (value) => {
    expect(() => loadDatabaseConfig({ DATABASE_URL: url, DATABASE_QUERY_TIMEOUT_MS: value })).toThrow('DATABASE_QUERY_TIMEOUT_MS')
  })

  test('several hosts with target_session_attrs=primary are taken; any other target is refused, naming DATABASE_URL', () => {
    const hosts = 'postgres://intake@db1.example.org:5432,db2.example.org:5432/intake?target_session_attrs=primary'
    expect(loadDatabaseConfig({ DATABASE_URL: hosts })).toMatchObject({ kind: 'postgres', url: hosts })
    for (const target of ['read-write', 'any', 'standby'])
      expect(() => loadDatabaseConfig({ DATABASE_URL: `${url}?sslmode=require&target_session_attrs=${target}` })).toThrow('DATABASE_URL')
  })
})

describe('PUBLIC_BASE_URL', () => {
  test('is kept without its trailing slashes, a path too', () => {
    expect(load({ PUBLIC_BASE_URL: 'https://intake.example.org/help//' }).publicBaseUrl).toBe('https://intake.example.org/help')
  })

  // Every mailed link is built on it: the rule of an invitation's appUrl (docs/api/access.md "Members and invitations").
  test.each([
    'http://intake.example.org\\@evil.example',
    'https://user:pw@intake.example.org',
    'https://intake.example.org/#x',
    'ftp://x.example',
  ])('%s stops the start with a message naming it', (value) => {
    expect(() => load({ PUBLIC_BASE_URL: value })).toThrow(ConfigError)
    expect(() => load({ PUBLIC_BASE_URL: value })).toThrow('PUBLIC_BASE_URL must')
  })
})

describe('send limits', () => {
  test('each has its default, and takes a whole number in its range', () => {
    expect(load({}).sendLimits).toEqual({
      passwordResetMailsPerHour: 3,
      smsPerRecipientPerHour: 10,
      smsPerMemberPerHour: 200,
      recipientMessagesPerHour: 10,
    })
    expect(load({ RECIPIENT_MESSAGES_PER_HOUR: '25' }).sendLimits.recipientMessagesPerHour).toBe(25)
  })

  test.each(['0', '-1', '2.5', 'ten', '100001'])('RECIPIENT_MESSAGES_PER_HOUR=%s stops the start with a message naming it', (value) => {
    expect(() => load({ RECIPIENT_MESSAGES_PER_HOUR: value })).toThrow(
      new ConfigError('RECIPIENT_MESSAGES_PER_HOUR', 'must be a whole number from 1 to 100000'),
    )
  })
})
