// Times every GET of the OpenAPI document against a running server: finds routes whose cost grows with data.
const base = process.argv[2]!
const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@bench-1.example.org', password: 'bench-password-1234' }) })
const { accessToken } = (await login.json()) as any
const h = { authorization: `Bearer ${accessToken}` }
const get = async (p: string) => (await fetch(base + p, { headers: h })).json() as any
const need = (await get('/api/needs?limit=1&page=300'))[0]
const constituent = (await get('/api/constituents?limit=1&page=300'))[0]
const member = (await get('/api/members'))[0]
const partner = (await get('/api/partners'))[0]
const match = (await get('/api/household-matches'))[0]
const ids: Record<string, string> = { id: need.id, needId: need.id, constituentId: constituent?.id, memberId: member.id, partnerId: partner.id, matchId: match?.id }
const spec = await (await fetch(`${base}/api/openapi.json`)).json() as any
const extra = ['/api/needs?status=RESOLVED', `/api/needs?constituentId=${constituent?.id}`, `/api/needs?assignedTo=${member.id}`, '/api/constituents?query=garcia', '/api/constituents?query=555', '/api/constituents?query=g', '/api/audit-events?action=merge', `/api/audit-events?member=${member.id}`, `/api/audit-events?record=${need.id}`, '/api/household-matches?status=OPEN', '/api/needs?page=2000']
for (const path of [...Object.keys(spec.paths).filter((p) => spec.paths[p].get && !p.includes('export') && !p.startsWith('/intake') && !p.includes('docs')), ...extra]) {
  const url = path.replace(/\{(\w+)\}/g, (_, k) => ids[k] ?? ids.id!)
  const times: number[] = []; let status = 0
  for (let i = 0; i < 5; i++) { const t = performance.now(); const r = await fetch(base + url, { headers: h }); await r.arrayBuffer(); status = r.status; times.push(performance.now() - t) }
  times.sort((a, b) => a - b)
  console.log(times[2]!.toFixed(2).padStart(9), 'ms', status, url.slice(0, 100))
}
