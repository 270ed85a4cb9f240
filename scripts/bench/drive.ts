// How the benchmark drives a server: wrk when installed (BENCH_DRIVER=autocannon to use autocannon anyway),
// else autocannon; each request in turn, the same token on each.
import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

/** BENCH_DRIVER=autocannon uses autocannon even where wrk is installed. */
const WRK = process.env.BENCH_DRIVER === 'autocannon' ? null : Bun.which('wrk')

export interface Measured {
  requests: number
  p50: number
  p99: number
  errors: number
}

export interface BenchRequest {
  method: string
  path: string
  body?: unknown
}

export interface Load {
  connections: number
  /** Seconds. */
  duration: number
}

/** What `drive` runs, for the report's heading. */
export const driverName = ({ connections, duration }: Load) =>
  WRK ? `wrk -t1 -c${connections} -d${duration}s` : `autocannon -c${connections} -d${duration}`

/** Drives `url` with the requests in turn, the same token on each: wrk when installed, else autocannon. */
export function drive(url: string, token: string, requests: BenchRequest[], load: Load): Promise<Measured> {
  return WRK ? driveWithWrk(url, token, requests, load) : driveWithAutocannon(url, token, requests, load)
}

async function driveWithWrk(url: string, token: string, requests: BenchRequest[], { connections, duration }: Load): Promise<Measured> {
  const script = join(tmpdir(), `bench-${crypto.randomUUID()}.lua`)
  writeFileSync(script, luaRequests(token, requests))
  const wrk = Bun.spawn([WRK!, '-t1', `-c${connections}`, `-d${duration}s`, '--latency', '-s', script, url], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const out = await new Response(wrk.stdout).text()
  await wrk.exited
  rmSync(script)
  const ms = (label: string) => {
    const match = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out)
    if (!match) return NaN
    return Number(match[1]) * ({ us: 0.001, ms: 1, s: 1000 } as const)[match[2] as 'us' | 'ms' | 's']
  }
  return {
    requests: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: ms('50%'),
    p99: ms('99%'),
    errors: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*?timeout (\d+)/.exec(out)?.[1] ?? 0),
  }
}

/** A Lua `request` that cycles through the requests (method, path, body), the same token on each. */
function luaRequests(token: string, requests: BenchRequest[]): string {
  const quote = (s: string) => JSON.stringify(s)
  const items = requests.map(
    (r) => `{${quote(r.method)}, ${quote(r.path)}, ${r.body === undefined ? 'nil' : quote(JSON.stringify(r.body))}}`,
  )
  return `local items = {${items.join(',\n')}}
local i = 0
local headers = { ["content-type"] = "application/json", ["authorization"] = ${quote(`Bearer ${token}`)} }
request = function()
  i = (i % #items) + 1
  local item = items[i]
  return wrk.format(item[1], item[2], headers, item[3])
end
`
}

async function driveWithAutocannon(
  url: string,
  token: string,
  requests: BenchRequest[],
  { connections, duration }: Load,
): Promise<Measured> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` }
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: requests.map((r) => ({
      method: r.method as 'GET',
      path: r.path,
      headers,
      ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) }),
    })),
  })
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  }
}
