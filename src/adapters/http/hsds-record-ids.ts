import { createHash } from 'node:crypto'

// docs/api/services.md "Identifiers of nested records": ids derived, not stored, the same at every publication.

/** A UUID version 5 (RFC 9562): the SHA-1 of `namespace`'s 16 bytes and `name`, marked as version 5 of the RFC's variant. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
  hash[6] = (hash[6]! & 0x0f) | 0x50
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** What a service's nested record is, and which one: the name its id is derived from. */
export type NestedRecord =
  | { kind: 'phone' | 'address' | 'service-at-location' | 'accepting-referrals' }
  | { kind: 'language'; tag: string }
  | { kind: 'schedule'; index: number }
  | { kind: 'attribute'; vocabulary: string; code: string }

/** The HSDS id of a nested record of the service `serviceId`. */
export function nestedRecordId(serviceId: string, record: NestedRecord): string {
  switch (record.kind) {
    case 'language':
      return uuidV5(serviceId, `language:${record.tag}`)
    case 'schedule':
      return uuidV5(serviceId, `schedule:${record.index}`)
    case 'attribute':
      return uuidV5(serviceId, `attribute:${record.vocabulary}:${record.code}`)
    default:
      return uuidV5(serviceId, record.kind)
  }
}
