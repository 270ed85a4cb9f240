import { startTestServer } from '../tests/support/http'
const api = await startTestServer()
const doc = await api.call('GET', '/api/openapi.json')
await Bun.write('/tmp/oa/doc.json', JSON.stringify(doc.body, null, 1))
await api.stop()
process.exit(0)
