/**
 * Whether an IP address is on the public internet, for deployments that refuse to let an organization's
 * email settings reach the service's own network (docs/api.md "Organization settings"): loopback, private
 * (RFC 1918, fc00::/7), link-local (169.254/16 with the cloud metadata address, fe80::/10), unspecified,
 * carrier-grade NAT, documentation, benchmarking, multicast and reserved ranges are not. IPv6 forms that
 * carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address. Anything unparsable is not.
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
  return `${v6.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`
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
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase()
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

function isPublicIpv6(g: number[]): boolean {
  const embeddedV4 = (high: number, low: number) => isPublicIpv4(high * 65536 + low)
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  if (zeros(0, 8)) return false // ::
  if (zeros(0, 7) && g[7] === 1) return false // ::1
  if (zeros(0, 5) && g[5] === 0xffff) return embeddedV4(g[6]!, g[7]!) // ::ffff:a.b.c.d
  if (zeros(0, 6)) return embeddedV4(g[6]!, g[7]!) // ::a.b.c.d (deprecated compatible form)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embeddedV4(g[6]!, g[7]!) // NAT64
  if (g[0] === 0x2002) return embeddedV4(g[1]!, g[2]!) // 6to4
  const first = g[0]!
  if ((first & 0xfe00) === 0xfc00) return false // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return false // link-local, site-local
  if ((first & 0xff00) === 0xff00) return false // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return false // documentation
  if (first === 0x0100 && zeros(1, 4)) return false // discard prefix 100::/64
  return true
}
