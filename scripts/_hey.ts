import { createClient } from '@hey-api/openapi-ts'
const doc = await Bun.file('/tmp/oa/doc.json').json()
await createClient({
  input: doc,
  output: '/tmp/oa/hey',
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
  logs: { level: 'silent' },
} as any)
