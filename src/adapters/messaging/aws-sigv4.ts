import { createHash, createHmac } from 'node:crypto'

export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  region: string
}

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex')
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

/**
 * Signs a request with AWS Signature Version 4 (header form) for one service: answers the headers to send,
 * Authorization included. Only what SES needs: no query string, JSON bodies.
 */
export function signAwsRequest(
  credentials: AwsCredentials,
  service: string,
  request: { method: string; url: URL; body: string; contentType: string },
  now: Date,
): Record<string, string> {
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
  const date = amzDate.slice(0, 8)
  const headers: Record<string, string> = {
    'content-type': request.contentType,
    host: request.url.host,
    'x-amz-content-sha256': sha256(request.body),
    'x-amz-date': amzDate,
  }
  const names = Object.keys(headers).sort()
  const canonicalRequest = [
    request.method,
    request.url.pathname.split('/').map(encodeURIComponent).join('/'),
    '',
    ...names.map((n) => `${n}:${headers[n]!.trim()}`),
    '',
    names.join(';'),
    headers['x-amz-content-sha256'],
  ].join('\n')
  const scope = `${date}/${credentials.region}/${service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n')
  const signingKey = [credentials.region, service, 'aws4_request'].reduce<Buffer>(
    (key, part) => hmac(key, part),
    hmac(`AWS4${credentials.secretAccessKey}`, date),
  )
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex')
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  }
}
