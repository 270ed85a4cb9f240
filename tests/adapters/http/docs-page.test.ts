import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { api, openDocsServer } from './docs-support'

// docs/self-hosting.md (docs): the interactive documentation page, over real HTTP. It is served to anyone, so
// it must load only what the service itself serves, from the pinned package, and send the document nowhere.
openDocsServer()

describe('GET /api/docs', () => {
  test('answers the interactive documentation as HTML, needing no credentials', async () => {
    const response = await api.call('GET', '/api/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/html')
    expect(String(response.body).toLowerCase()).toContain('<html')
  })

  /** The scripts and styles the page loads, as a browser resolves them. */
  async function assetsOfPage(): Promise<{ html: string; policy: string | null; sources: URL[] }> {
    const response = await api.call('GET', '/api/docs')
    const html = String(response.body)
    const sources = [...html.matchAll(/<(?:script|link|img)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map(
      (m) => new URL(m[1]!, `${api.url}/api/docs`),
    )
    return { html, policy: response.headers.get('content-security-policy'), sources }
  }

  test('the page loads the OpenAPI document from a URL that answers it (resolved as a browser would)', async () => {
    const { sources } = await assetsOfPage()
    const init = await (await fetch(sources.find((u) => u.pathname.endsWith('/init.js'))!)).text()
    const specUrl = new URL(/url: '([^']+)'/.exec(init)![1]!, `${api.url}/api/docs`)
    expect(specUrl.pathname).toBe('/api/openapi.json')
    const spec = await fetch(specUrl)
    expect(spec.status).toBe(200)
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\./)
  })

  test('the page names nothing outside the service, and everything it loads is the pinned package, served by the service', async () => {
    const { html, policy, sources } = await assetsOfPage()
    // The browser enforces it too: everything from this origin only.
    const directives = Object.fromEntries(policy!.split(/;\s*/).map((d) => [d.split(' ')[0], d]))
    expect(directives).toMatchObject({
      'default-src': "default-src 'none'",
      'script-src': "script-src 'self'",
      'connect-src': "connect-src 'self'",
    })
    expect(html).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i)
    expect(sources.map((u) => u.origin)).toEqual([api.url, api.url, api.url])
    const packaged = join(import.meta.dir, '../../../node_modules/swagger-ui-dist')
    for (const [file, type] of [
      ['swagger-ui-bundle.js', 'text/javascript'],
      ['swagger-ui.css', 'text/css'],
    ] as const) {
      const asset = await fetch(sources.find((u) => u.pathname.endsWith(`/${file}`))!)
      expect(asset.status).toBe(200)
      expect(asset.headers.get('content-type')).toStartWith(type)
      expect(await asset.text()).toBe(await Bun.file(join(packaged, file)).text())
    }
    // Swagger UI would otherwise send the document to swagger.io's validator.
    const init = await (await fetch(sources.find((u) => u.pathname.endsWith('/init.js'))!)).text()
    expect(init).toContain('validatorUrl: null')
  })
})
