/**
 * Whether an IP address is on the public internet, for deployments that refuse to let an organization's
 * email settings reach the service's own network (docs/api/organization.md "Organization settings"): loopback, private
 * (RFC 1918, fc00::/7), link-local (169.254/16 with the cloud metadata address, fe80::/10), unspecified,
 * carrier-grade NAT, documentation, benchmarking, multicast and reserved ranges are not; of IPv6, only global
 * unicast may be. IPv6 forms that carry an IPv4 address (mapped, translated, compatible, NAT64, 6to4) are
 * judged by that address; Teredo and local-use NAT64 are not public. Anything unparsable is not.
 */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIpv4(address)
  if (v4 !== undefined) return isPublicIpv4(v4)
  const v6 = parseIpv6(address)
  return v6 !== undefined && isPublicIpv6(v6)
}

/**
 * The block an address belongs to, for counting what comes from one client: an IPv6 address by its /64
 * (one subscriber gets a whole /64 and can pick any address in it), an IPv4 address (also one written in
 * IPv6) as itself. Anything else is returned as given.
 */
export function clientBlockOf(address: string): string {
  if (parseIpv4(address) !== undefined) return address
  const v6 = parseIpv6(address)
  if (!v6) return address
  const zeros = (from: number, to: number) => v6.slice(from, to).every((x) => x === 0)
  if (zeros(0, 5) && v6[5] === 0xffff) return `${v6[6]! >> 8}.${v6[6]! & 255}.${v6[7]! >> 8}.${v6[7]! & 255}`
  return `${v6
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}

/** [network, prefix length] pairs, IPv4 as a 32-bit number. */
const NON_PUBLIC_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
]
const V4_RANGES = NON_PUBLIC_V4.map(([network, bits]) => [parseIpv4(network)!, bits] as const)

function isPublicIpv4(value: number): boolean {
  return !V4_RANGES.some(([network, bits]) => value >>> (32 - bits) === network >>> (32 - bits))
}

function parseIpv4(text: string): number | undefined {
  const parts = text.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined
  return parts.reduce((value, part) => value * 256 + Number(part), 0)
}

/** Eight 16-bit groups, or undefined. Accepts `::` and a dotted IPv4 tail; drops a zone (`%eth0`) and brackets. */
function parseIpv6(text: string): number[] | undefined {
  const bare = text
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase()
  if (!bare.includes(':')) return undefined
  const halves = bare.split('::')
  if (halves.length > 2) return undefined
  const groupsOf = (part: string): number[] | undefined => {
    if (part === '') return []
    const groups: number[] = []
    const pieces = part.split(':')
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece)
        if (v4 === undefined) return undefined
        groups.push(Math.floor(v4 / 65536), v4 % 65536)
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) groups.push(parseInt(piece, 16))
      else return undefined
    }
    return groups
  }
  const head = groupsOf(halves[0]!)
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : []
  if (!head || !tail) return undefined
  if (halves.length === 1) return head.length === 8 ? head : undefined
  const missing = 8 - head.length - tail.length
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined
}

/** [network, prefix length] pairs, IPv6 as eight 16-bit groups. */
type V6Range = readonly [readonly number[], number]
const v6Range = (network: string, bits: number): V6Range => [parseIpv6(network)!, bits]

function inRange(g: readonly number[], [network, bits]: V6Range): boolean {
  for (let i = 0; i * 16 < bits; i++) {
    const mask = (0xffff << (16 - Math.min(16, bits - i * 16))) & 0xffff
    if ((g[i]! & mask) !== (network[i]! & mask)) return false
  }
  return true
}

/**
 * IPv6 forms that carry an IPv4 address, and the group where it starts: reaching one reaches that IPv4
 * address (directly, or through a translator or relay), so it is judged by that address.
 */
const IPV4_CARRIERS: ReadonlyArray<readonly [V6Range, number]> = [
  [v6Range('::ffff:0:0', 96), 6], // IPv4-mapped
  [v6Range('::ffff:0:0:0', 96), 6], // IPv4-translated (SIIT)
  [v6Range('::', 96), 6], // IPv4-compatible (deprecated); also :: and ::1, whose 0.0.0.0/8 is not public
  [v6Range('64:ff9b::', 96), 6], // NAT64, the well-known prefix
  [v6Range('2002::', 16), 1], // 6to4
]

/**
 * Global unicast is 2000::/3 (everything else is reserved, private, link-local or multicast), less these.
 * Teredo (2001::/32) is refused outright rather than judged by the addresses inside (its server's, and its
 * client's under a mask): a mail relay or webhook receiver has no reason to be reached through a Teredo
 * relay the service does not choose. Local-use NAT64 (64:ff9b:1::/48, outside 2000::/3) is refused too:
 * it serves one operator's network, and where the IPv4 address sits depends on a prefix length only that
 * operator knows.
 */
const GLOBAL_UNICAST = v6Range('2000::', 3)
const NON_PUBLIC_V6: readonly V6Range[] = [
  v6Range('2001::', 32), // Teredo
  v6Range('2001:2::', 48), // benchmarking
  v6Range('2001:db8::', 32), // documentation
  v6Range('3fff::', 20), // documentation
]

function isPublicIpv6(g: number[]): boolean {
  const carrier = IPV4_CARRIERS.find(([range]) => inRange(g, range))
  if (carrier) return isPublicIpv4(g[carrier[1]]! * 65536 + g[carrier[1] + 1]!)
  return inRange(g, GLOBAL_UNICAST) && !NON_PUBLIC_V6.some((range) => inRange(g, range))
}
