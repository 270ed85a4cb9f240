import { describe, expect, test } from 'bun:test'
import { cannotTextReason, type TextingFacts } from '../../../src/domain/messaging/can-text'

// docs/api/needs.md "Texting a need": each reason, and which wins when several hold.
const MAY: TextingFacts = { phone: '+15550001111', textsReachPeople: true, organizationNumber: '+15557770000', withinLimits: true }

describe('cannotTextReason', () => {
  test('a number that opted in, through Twilio, from the organization’s number, under the limits, may be texted', () => {
    expect(cannotTextReason(MAY)).toBeUndefined()
  })

  test.each<[string, Partial<TextingFacts>, string]>([
    ['no phone', { phone: undefined }, 'no-phone'],
    ['an opted-out number', { textsStoppedAt: new Date(0) }, 'opted-out'],
    ['the log provider', { textsReachPeople: false, organizationNumber: undefined }, 'provider-log'],
    ['no SMS number', { organizationNumber: undefined }, 'no-sms-number'],
    ['a limit reached', { withinLimits: false }, 'limit-reached'],
  ])('%s: %s', (_name, facts, reason) => {
    expect(cannotTextReason({ ...MAY, ...facts })).toBe(reason as never)
  })

  test('what the person chose comes first, a limit last', () => {
    const everything = { phone: MAY.phone, textsStoppedAt: new Date(0), textsReachPeople: false, withinLimits: false }
    expect(cannotTextReason(everything)).toBe('opted-out')
    expect(cannotTextReason({ ...everything, textsStoppedAt: undefined })).toBe('provider-log')
    expect(cannotTextReason({ ...everything, textsStoppedAt: undefined, textsReachPeople: true })).toBe('no-sms-number')
  })

  test('where the log is accepted (staff texts), it needs no SMS number and only the limit stands', () => {
    const log = { ...MAY, textsReachPeople: false, organizationNumber: undefined }
    expect(cannotTextReason(log, true)).toBeUndefined()
    expect(cannotTextReason({ ...log, withinLimits: false }, true)).toBe('limit-reached')
    expect(cannotTextReason({ ...log, textsStoppedAt: new Date(0) }, true)).toBe('opted-out')
  })
})
