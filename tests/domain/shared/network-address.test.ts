import { describe, expect, test } from 'bun:test'
import { clientBlockOf, isPublicAddress } from '../../../src/domain/shared/network-address'

describe('isPublicAddress', () => {
  test.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '192.0.2.10',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::10.0.0.1',
    '2002:c0a8:0101::1',
    '::127.0.0.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  test.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  // Every IPv6 form that carries an IPv4 address, spelled as clients and resolvers may write it: compressed,
  // expanded, with a dotted tail, in upper case, in brackets, with a zone.
  test.each([
    [
      'IPv4-mapped loopback',
      [
        '::ffff:127.0.0.1',
        '::ffff:7f00:1',
        '0:0:0:0:0:ffff:7f00:1',
        '0000:0000:0000:0000:0000:FFFF:7F00:0001',
        '[::FFFF:127.0.0.1]',
        '::ffff:7f00:1%eth0',
        '[::ffff:7f00:1%25lo]',
      ],
    ],
    ['IPv4-mapped metadata', ['::ffff:a9fe:a9fe', '::ffff:169.254.169.254']],
    [
      'IPv4-translated (SIIT) loopback',
      [
        '::ffff:0:7f00:1',
        '::ffff:0:127.0.0.1',
        '0:0:0:0:ffff:0:7f00:1',
        '0000:0000:0000:0000:FFFF:0000:7F00:0001',
        '[::FFFF:0:7F00:1]',
        '::ffff:0:7f00:1%eth0',
      ],
    ],
    ['IPv4-translated private', ['::ffff:0:a00:1', '::ffff:0:192.168.1.1']],
    ['IPv4-compatible loopback', ['::7f00:1', '::127.0.0.1', '0:0:0:0:0:0:7f00:1']],
    [
      'NAT64 of a private address',
      [
        '64:ff9b::10.0.0.1',
        '64:ff9b::a00:1',
        '0064:FF9B:0000:0000:0000:0000:0A00:0001',
        '[64:ff9b::7f00:1]',
        '64:ff9b::169.254.169.254%eth0',
      ],
    ],
    [
      'local-use NAT64, whatever it carries',
      ['64:ff9b:1::8.8.8.8', '64:ff9b:1::808:808', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', '[64:FF9B:1::1]'],
    ],
    [
      '6to4 of a private address',
      ['2002:7f00:1::', '2002:0a00:0001::1', '2002:A9FE:A9FE::1', '[2002:c0a8:101::1%eth0]', '2002:c0a8:0101:0:0:0:0:1'],
    ],
    [
      'Teredo, whatever it carries',
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::1', '2001:0000:0808:0808::f7f7:f7f7', '[2001:0:7f00:1::]', '2001:0:0:0:0:0:0:1'],
    ],
    ['other reserved IPv6', ['100::1', '4000::1', '5f00::1', '3fff::1', '2001:2::1', 'fec0::1', '::ffff:1:7f00:1']],
  ])('%s is not public: %p', (_case, spellings) => {
    for (const address of spellings) expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false })
  })

  test.each([
    ['IPv4-mapped', ['::ffff:8.8.8.8', '::FFFF:808:808', '[::ffff:8.8.8.8]']],
    ['IPv4-translated', ['::ffff:0:8.8.8.8', '::ffff:0:808:808', '0:0:0:0:ffff:0:808:808']],
    ['NAT64', ['64:ff9b::8.8.8.8', '64:FF9B::808:808', '[64:ff9b::808:808]']],
    ['6to4', ['2002:808:808::1', '2002:0808:0808:0:0:0:0:1']],
  ])('%s of a public address is public: %p', (_case, spellings) => {
    for (const address of spellings) expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true })
  })

  test.each(['', 'localhost', 'example.org', '256.0.0.1', '1.2.3', '1:2:3', '1::2::3', '12345::', '1.2.3.4.5'])(
    '%s is no address, so not public',
    (text) => {
      expect(isPublicAddress(text)).toBe(false)
    },
  )
})

describe('clientBlockOf', () => {
  test('an IPv6 address counts by its /64; IPv4, also written as IPv6, by itself; anything else as given', () => {
    expect(clientBlockOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(clientBlockOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(clientBlockOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(clientBlockOf('::ffff:192.0.2.7')).toBe('192.0.2.7')
    expect(clientBlockOf('192.0.2.7')).toBe('192.0.2.7')
    expect(clientBlockOf('unknown')).toBe('unknown')
  })
})
