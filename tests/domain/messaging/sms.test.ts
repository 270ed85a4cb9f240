import { describe, expect, test } from 'bun:test'
import { advancesDelivery, deliveryStatusOf, helpAnswerOf, smsKeywordOf, type DeliveryStatus } from '../../../src/domain/messaging/sms'

// docs/api/organization.md "SMS": the whole body, trimmed and case-insensitive, is the keyword. Written out, not derived.
const OPT_OUT = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT', 'ALTO', 'PARAR', 'BAJA']
const OPT_IN = ['START', 'YES', 'UNSTOP', 'COMENZAR', 'SI', 'SÍ']
const optKeywordOf = (body: string) => smsKeywordOf(body)?.keyword

describe('keywords (smsKeywordOf)', () => {
  for (const keyword of OPT_OUT) {
    test(`${keyword} opts out, in any case and with spaces around it`, () => {
      expect(optKeywordOf(keyword)).toBe('opt-out')
      expect(optKeywordOf(keyword.toLowerCase())).toBe('opt-out')
      expect(optKeywordOf(` ${keyword[0]}${keyword.slice(1).toLowerCase()} \n`)).toBe('opt-out')
    })
  }

  for (const keyword of OPT_IN) {
    test(`${keyword} opts back in, in any case and with spaces around it`, () => {
      expect(optKeywordOf(keyword)).toBe('opt-in')
      expect(optKeywordOf(keyword.toLowerCase())).toBe('opt-in')
      expect(optKeywordOf(`\t${keyword[0]}${keyword.slice(1).toLowerCase()}  `)).toBe('opt-in')
    })
  }

  test('a keyword inside a longer message is an ordinary message', () => {
    for (const body of ['Please stop', 'STOP now', 'stop.', 'yes please', 'START over', 'S T O P', 'STOP STOP']) {
      expect(optKeywordOf(body)).toBeUndefined()
    }
  })

  test('near misses, other words and an empty body are ordinary messages', () => {
    for (const body of ['STOPP', 'STO', 'OPT OUT', 'OPT-OUT', 'UN STOP', 'NO', 'INFO', 'Y', 'S', 'AYUDAME', 'HELP ME', '', '   ']) {
      expect(optKeywordOf(body)).toBeUndefined()
    }
  })

  test('HELP asks in English, AYUDA in Spanish; STOP, ALTO, START and COMENZAR say which language they are in', () => {
    expect(smsKeywordOf(' help ')).toEqual({ keyword: 'help', language: 'en' })
    expect(smsKeywordOf('Ayuda')).toEqual({ keyword: 'help', language: 'es' })
    expect(smsKeywordOf('stop')).toEqual({ keyword: 'opt-out', language: 'en' })
    expect(smsKeywordOf('alto')).toEqual({ keyword: 'opt-out', language: 'es' })
    expect(smsKeywordOf('sí')).toEqual({ keyword: 'opt-in', language: 'es' })
  })

  test('the answer to HELP names the organization and how to stop, in the language asked', () => {
    expect(helpAnswerOf('en', 'Food Bank')).toStartWith('Food Bank: ')
    expect(helpAnswerOf('en', 'Food Bank')).toContain('Reply STOP')
    expect(helpAnswerOf('es', 'Food Bank')).toStartWith('Food Bank: ')
    expect(helpAnswerOf('es', 'Food Bank')).toContain('Responda ALTO')
  })
})

describe("the provider's message statuses (deliveryStatusOf)", () => {
  const MAPPING: Array<[string, DeliveryStatus]> = [
    ['accepted', 'queued'],
    ['scheduled', 'queued'],
    ['queued', 'queued'],
    ['sending', 'sent'],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['undelivered', 'failed'],
    ['failed', 'failed'],
    ['canceled', 'failed'],
  ]

  for (const [provider, ours] of MAPPING) {
    test(`${provider} is ${ours}, whatever its case`, () => {
      expect(deliveryStatusOf(provider)).toBe(ours)
      expect(deliveryStatusOf(provider.toUpperCase())).toBe(ours)
    })
  }

  test('statuses that say nothing about delivery, and unknown ones, change nothing', () => {
    for (const status of ['read', 'receiving', 'received', 'partially_delivered', 'unknown', '']) {
      expect(deliveryStatusOf(status)).toBeUndefined()
    }
  })
})

describe('delivery only moves forward (advancesDelivery)', () => {
  type From = DeliveryStatus | 'none'
  // prettier-ignore
  const ALLOWED: Record<From, Record<DeliveryStatus, boolean>> = {
    //          queued        sent         delivered        failed
    none: { queued: true, sent: true, delivered: true, failed: true },
    queued: { queued: true, sent: true, delivered: true, failed: true },
    sent: { queued: false, sent: true, delivered: true, failed: true },
    delivered: { queued: false, sent: false, delivered: false, failed: false },
    failed: { queued: false, sent: false, delivered: false, failed: false },
  }

  for (const [from, row] of Object.entries(ALLOWED) as Array<[From, Record<DeliveryStatus, boolean>]>) {
    for (const [to, allowed] of Object.entries(row) as Array<[DeliveryStatus, boolean]>) {
      test(`${from} -> ${to} is ${allowed ? 'taken' : 'ignored'}`, () => {
        expect(advancesDelivery(from === 'none' ? undefined : from, to)).toBe(allowed)
      })
    }
  }

  test('nothing ever moves a message out of delivered or failed', () => {
    const statuses: DeliveryStatus[] = ['queued', 'sent', 'delivered', 'failed']
    for (const final of ['delivered', 'failed'] as const) {
      expect(statuses.filter((to) => advancesDelivery(final, to))).toEqual([])
    }
  })
})
