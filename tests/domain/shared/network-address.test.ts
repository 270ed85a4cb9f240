import { describe, expect, test } from 'bun:test'
import { clientBlockOf, isPublicAddress } from '../../../src/domain/shared/network-address'

describe('isPublicAddress', () => {
  test.each([
    '127.0.0.1', '127.255.0.9', '0.0.0.0', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '192.0.2.10', '224.0.0.1', '255.255.255.255',
    '::', '::1', '[::1]', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '2001:db8::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '64:ff9b::10.0.0.1', '2002:c0a8:0101::1', '::127.0.0.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true)
    },
  )

  test.each(['', 'localhost', 'example.org', '256.0.0.1', '1.2.3', '1:2:3', '1::2::3', '12345::', '1.2.3.4.5'])('%s is no address, so not public', (text) => {
    expect(isPublicAddress(text)).toBe(false)
  })
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
