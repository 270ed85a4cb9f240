// The staff console's two targets
// (docs/performance/results.md "The staff console"): the first load's script and
// stylesheet, gzipped, and the time to the inbox's 25 rows painted after logging in, in headless Chromium on
// loopback. The times are taken in the page (the form's submit, the login answer's end, the first frame after
// the 25th row is in the document), so the driver's own latency is not in them.
import { launchChromium } from '../../tests/support/browser'

export interface ConsoleFigures {
  firstLoadGzipBytes: number
  /** From pressing "Log in" to the 25 rows painted: the password's check (argon2id, by design slow) included. */
  fromSubmitMs: number[]
  /** From the login's answer (the session opened) to the 25 rows painted: the console's own work and its API calls. */
  fromLoginMs: number[]
}

/** The page's script and stylesheet as a browser fetches them on a first visit, gzipped as served over the wire would be. */
async function firstLoadGzipBytes(base: string): Promise<number> {
  const page = await (await fetch(`${base}/`)).text()
  const assets = [...page.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!)
  const texts = await Promise.all(assets.map(async (path) => (await fetch(`${base}${path}`)).text()))
  return texts.reduce((sum, text) => sum + Bun.gzipSync(text).byteLength, 0)
}

// Run in the page: the moment of the login form's submit, and of the first frame with 25 rows in the table.
const WATCH_PAINT = `(() => {
  window.__paint = new Promise((resolve) => {
    let start
    document.addEventListener('submit', () => { start = performance.now() }, { capture: true, once: true })
    new MutationObserver((_, observer) => {
      if (start === undefined || document.querySelectorAll('tbody tr').length < 25) return
      observer.disconnect()
      requestAnimationFrame(() => {
        const painted = performance.now()
        const login = performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname === '/api/auth/session')
        resolve([painted - start, painted - login.responseEnd])
      })
    }).observe(document.body, { childList: true, subtree: true })
  })
})()`

export async function measureConsole(base: string, email: string, password: string, logins = 10): Promise<ConsoleFigures> {
  const browser = await launchChromium()
  try {
    const fromSubmitMs: number[] = []
    const fromLoginMs: number[] = []
    for (let i = 0; i < logins; i++) {
      await browser.context.clearCookies()
      const page = await browser.context.newPage()
      await page.goto(`${base}/`)
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(password)
      await page.evaluate(WATCH_PAINT)
      await page.getByRole('button', { name: 'Log in' }).click()
      const [fromSubmit, fromLogin] = (await page.evaluate('window.__paint')) as [number, number]
      fromSubmitMs.push(fromSubmit)
      fromLoginMs.push(fromLogin)
      await page.close()
    }
    return { firstLoadGzipBytes: await firstLoadGzipBytes(base), fromSubmitMs, fromLoginMs }
  } finally {
    await browser.close()
  }
}
