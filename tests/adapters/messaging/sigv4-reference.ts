import { createHash, createHmac } from 'node:crypto'

// A small, separate implementation of AWS Signature Version 4 (header form), written from AWS's
// documentation ("Create a signed AWS API request": canonical request, string to sign, signing key,
// signature) to check the adapter's signatures against. It is deliberately independent of
// src/adapters/messaging/aws-sigv4.ts and validated against AWS's published get-vanilla vector.

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

/** RFC 3986 percent-encoding: unreserved characters stay, the rest is %XX with upper-case hex. */
function uriEncode(text: string): string {
  return Array.from(new TextEncoder().encode(text))
    .map((byte) => {
      const char = String.fromCharCode(byte)
      return /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
    })
    .join('')
}

/**
 * The canonical URI: AWS asks for each path segment to be URI-encoded twice for every service but S3. The
 * URL's pathname is already the once-encoded form sent on the wire, so non-S3 services encode it once more.
 */
function canonicalUri(pathname: string, service: string): string {
  if (service === 's3') return pathname || '/'
  return pathname.split('/').map(uriEncode).join('/') || '/'
}

function canonicalQuery(search: URLSearchParams): string {
  return [...search.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
}

export interface ReferenceInput {
  method: string
  url: URL
  /** The headers to sign, any case; values are trimmed and inner runs of spaces collapsed. */
  headers: Record<string, string>
  body: string
  accessKeyId: string
  secretAccessKey: string
  region: string
  service: string
  /** YYYYMMDD'T'HHMMSS'Z' */
  amzDate: string
}

export function referenceSigningKey(secretAccessKey: string, date: string, region: string, service: string): Buffer {
  const kDate = hmac(`AWS4${secretAccessKey}`, date)
  const kRegion = hmac(kDate, region)
  const kService = hmac(kRegion, service)
  return hmac(kService, 'aws4_request')
}

export function referenceSign(input: ReferenceInput) {
  const entries = Object.entries(input.headers).map(([name, value]) => [name.toLowerCase(), value.trim().replace(/ +/g, ' ')] as const)
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const signedHeaders = entries.map(([name]) => name).join(';')
  const canonicalHeaders = entries.map(([name, value]) => `${name}:${value}\n`).join('')
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalUri(input.url.pathname, input.service),
    canonicalQuery(input.url.searchParams),
    canonicalHeaders,
    signedHeaders,
    hex(input.body),
  ].join('\n')
  const date = input.amzDate.slice(0, 8)
  const scope = `${date}/${input.region}/${input.service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, hex(canonicalRequest)].join('\n')
  const signature = createHmac('sha256', referenceSigningKey(input.secretAccessKey, date, input.region, input.service))
    .update(stringToSign, 'utf8')
    .digest('hex')
  return {
    canonicalRequest,
    stringToSign,
    signature,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  }
}

/** The parts of an `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` header. */
export function parseAuthorization(header: string) {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9\-;]+), ?Signature=([0-9a-f]{64})$/.exec(
      header,
    )
  if (!match) throw new Error(`not a SigV4 Authorization header: ${header}`)
  const [, accessKeyId, date, region, service, signedHeaders, signature] = match as unknown as string[]
  return {
    accessKeyId: accessKeyId!,
    date: date!,
    region: region!,
    service: service!,
    signedHeaders: signedHeaders!.split(';'),
    signature: signature!,
  }
}
