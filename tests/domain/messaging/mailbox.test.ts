import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { mailboxOf } from '../../../src/domain/messaging/mailbox'

// docs/constituents.md "Duplicate detection", docs/api/needs.md "Public intake": the forms of one address that reach
// one mailbox are one key.

/** A local part's letters as people write them: letters, digits and a few of the marks atext allows, no `+` or dot. */
const word = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-!#'),
  minLength: 1,
  maxLength: 8,
})
const localPart = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join('.'))
const domain = fc.constantFrom('example.org', 'Example.ORG', 'mail.example.co.uk', 'gmail.com', 'GMail.com', 'googlemail.com')
/** Text made of what the key reads: quotes, at signs, tags, dots, case, spaces, escapes. */
const marks = fc.string({ unit: fc.constantFrom(...'"@+.aA \\'), maxLength: 12 })
const address = fc.tuple(localPart, domain).map(([local, at]) => `${local}@${at}`)

/** Another form of the address that reaches the same mailbox. */
const variant = (address: string) =>
  fc
    .record({
      shout: fc.boolean(),
      tag: fc.option(fc.string({ unit: fc.constantFrom(...'abc123+.-'), maxLength: 6 }), { nil: undefined }),
      quote: fc.boolean(),
      dots: fc.nat({ max: 3 }),
      googlemail: fc.boolean(),
    })
    .map(({ shout, tag, quote, dots, googlemail }) => {
      const at = address.lastIndexOf('@')
      let local = address.slice(0, at)
      let host = address.slice(at + 1)
      const gmail = ['gmail.com', 'googlemail.com'].includes(host.toLowerCase())
      if (gmail && dots > 0) local = [...local].map((c, i) => (i > 0 && i % dots === 0 ? `.${c}` : c)).join('')
      if (gmail && googlemail) host = 'GoogleMail.com'
      if (tag !== undefined) local = `${local}+${tag}`
      if (quote) local = `"${local}"`
      const written = `${local}@${host}`
      return shout ? written.toUpperCase() : written
    })

describe('the mailbox of an address', () => {
  test.each([
    ['X@Example.ORG', 'x@example.org'],
    ['x+1@example.org', 'x@example.org'],
    ['x+food+more@example.org', 'x@example.org'],
    ['"x"@example.org', 'x@example.org'],
    ['"X+1"@example.org', 'x@example.org'],
    ['"x"+1@example.org', 'x@example.org'],
    ['  x@example.org ', 'x@example.org'],
    ['Ana.Ruiz@example.org', 'ana.ruiz@example.org'],
    ['A.na.Ruiz+help@GMail.com', 'anaruiz@gmail.com'],
    ['ana.ruiz@googlemail.com', 'anaruiz@gmail.com'],
    ['"a.n.a"@gmail.com', 'ana@gmail.com'],
    // A tag needs a name before it; quotes that hold a quote, an escape or a space are part of the name.
    ['+x@example.org', '+x@example.org'],
    ['"a\\"b"@example.org', '"a\\"b"@example.org'],
    ['"a b"@Example.org', '"a b"@example.org'],
    ['""@example.org', '""@example.org'],
    ['no-at-sign', 'no-at-sign'],
  ])('%s is %s', (given, mailbox) => {
    expect(mailboxOf(given)).toBe(mailboxOf(mailbox))
    expect(mailboxOf(given)).toBe(mailbox)
  })

  test('is its own mailbox: the key of a key is the key', () => {
    fc.assert(
      fc.property(fc.oneof(address, address.chain(variant), marks, fc.string({ unit: 'grapheme' })), (given) =>
        expect(mailboxOf(mailboxOf(given))).toBe(mailboxOf(given)),
      ),
    )
  })

  test('every form of an address (case, +tag, quotes, Gmail’s dots and googlemail.com) is one mailbox', () => {
    fc.assert(
      fc.property(
        address.chain((a) => fc.tuple(fc.constant(a), variant(a))),
        ([given, other]) => expect(mailboxOf(other)).toBe(mailboxOf(given)),
      ),
    )
  })

  test('addresses that differ but in case are other mailboxes, Gmail’s dots aside', () => {
    fc.assert(
      fc.property(address, address, (a, b) => {
        const ignoringDots = (x: string) =>
          /@g(oogle)?mail\.com$/i.test(x)
            ? x
                .toLowerCase()
                .replace(/\.(?=[^@]*@)/g, '')
                .replace('googlemail', 'gmail')
            : x.toLowerCase()
        expect(mailboxOf(a) === mailboxOf(b)).toBe(ignoringDots(a) === ignoringDots(b))
      }),
    )
  })
})
