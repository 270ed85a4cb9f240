import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/main/config'

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
