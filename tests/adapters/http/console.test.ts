import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from '../../support/http'

// docs/console.md "Serving": the console's page and its content-hashed assets, with their caching and CSP.
let api: TestServer
beforeAll(async () => {
  api = await startTestServer()
})
afterAll(() => api.stop())

const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!)

describe('the staff console', () => {
  test('GET / answers its page, never cached, with a CSP that allows scripts from the service only', async () => {
    const response = await fetch(`${api.url}/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    const html = await response.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/) // no inline script
    expect(html).not.toMatch(/https?:\/\//) // nothing from elsewhere
  })

  test('its script and stylesheet are named by their content and cached for a year, immutable', async () => {
    const assets = assetsOf(await (await fetch(`${api.url}/`)).text())
    expect(assets.map((path) => path.replace(/-[a-z0-9]{8}\./, '-HASH.'))).toEqual([
      '/console/assets/main-HASH.css',
      '/console/assets/main-HASH.js',
    ])
    for (const path of assets) {
      const response = await fetch(`${api.url}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-type')).toBe(path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8')
      expect((await response.text()).length).toBeGreaterThan(0)
    }
  })

  test('the script loads nothing from elsewhere, and the first load is within 150 KB gzipped', async () => {
    const assets = assetsOf(await (await fetch(`${api.url}/`)).text())
    const texts = await Promise.all(assets.map(async (path) => (await fetch(`${api.url}${path}`)).text()))
    const gzipped = texts.reduce((sum, text) => sum + Bun.gzipSync(text).byteLength, 0)
    expect(gzipped).toBeLessThanOrEqual(150 * 1024)
    const text = texts[assets.findIndex((path) => path.endsWith('.js'))]!
    expect(text).not.toMatch(/\bimport\s*\(?\s*["']https?:/)
    expect(text).not.toMatch(/fetch\(\s*["']https?:/)
  })

  test('an asset it does not have is a problem 404', async () => {
    for (const path of ['/console/assets/main-00000000.js', '/console/assets/main.txt']) {
      const response = await api.call('GET', path)
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    }
  })

  test('the language is chosen as on the pages: ?lang=, else Accept-Language', async () => {
    const lang = async (path: string, acceptLanguage?: string) =>
      /<html lang="(\w+)">/.exec(
        await (await fetch(`${api.url}${path}`, { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} })).text(),
      )?.[1]
    expect(await lang('/')).toBe('en')
    expect(await lang('/', 'es-MX,es;q=0.9,en;q=0.5')).toBe('es')
    expect(await lang('/?lang=en', 'es')).toBe('en')
    expect(await lang('/?lang=es')).toBe('es')
  })
})
