// Times every GET route of the OpenAPI document, and a few filtered lists and searches, against a running service
// on data `npm run bench` seeded: the median of 5 per route, to find the routes whose cost grows with the data.
// See docs/performance.md.
//
//   bun scripts/profiling/probe-gets.ts http://localhost:3000
import { logIn } from '../bench/server'

const base = process.argv[2]
if (!base) throw new Error('name the running service: bun scripts/profiling/probe-gets.ts http://localhost:3000')
const headers = { authorization: `Bearer ${await logIn(base, 'admin@bench-1.example.org')}` }
const get = async (path: string): Promise<any> => (await fetch(base + path, { headers })).json()

const need = (await get('/api/needs?limit=1&page=300'))[0]
const constituent = (await get('/api/constituents?limit=1&page=300'))[0]
const member = (await get('/api/members'))[0]
const partner = (await get('/api/partners'))[0]
const match = (await get('/api/household-matches'))[0]
/** The record each `{id}` names, by the collection before it. */
const ids: Record<string, string | undefined> = {
  needs: need.id,
  constituents: constituent?.id,
  members: member.id,
  partners: partner.id,
  'household-matches': match?.id,
}
const spec = await get('/api/openapi.json')
const documented = Object.keys(spec.paths).filter(
  (path) =>
    spec.paths[path].get && !path.includes('export') && !path.startsWith('/intake') && !path.includes('docs') && !path.includes('reports'),
)
const filtered = [
  '/api/needs?status=RESOLVED',
  `/api/needs?constituentId=${constituent?.id}`,
  `/api/needs?assignedTo=${member.id}`,
  '/api/constituents?query=garcia',
  '/api/constituents?query=555',
  '/api/constituents?query=g',
  '/api/audit-events?action=merge',
  `/api/audit-events?memberId=${member.id}`,
  `/api/audit-events?recordType=need&recordId=${need.id}`,
  '/api/reports/needs?from=2025-01-01&to=2025-12-31',
  '/api/household-matches?status=OPEN',
  '/api/needs?page=2000',
]
for (const path of [...documented, ...filtered]) {
  const url = path.replace(/([\w-]+)\/\{\w+\}/g, (_, collection: string) => `${collection}/${ids[collection] ?? need.id}`)
  const times: number[] = []
  let status = 0
  for (let i = 0; i < 5; i++) {
    const start = performance.now()
    const response = await fetch(base + url, { headers })
    await response.arrayBuffer()
    status = response.status
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  console.log(times[2]!.toFixed(2).padStart(9), 'ms', status, url.slice(0, 100))
}
