import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import axe from 'axe-core'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

/** Debian's Chromium (what .ci/run installs), or CHROMIUM_PATH. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

let announced = false

/** Whether the browser tests run here; says once, in one line, when they are skipped. */
export function chromiumAvailable(): boolean {
  const found = existsSync(CHROMIUM)
  if (!found && !announced) {
    announced = true
    console.log(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`)
  }
  return found
}

/**
 * A headless Chromium with a fresh profile, closed and removed by `close`. Without the background-networking
 * flags it waits on services it cannot reach from a closed network.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'intake-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

export interface Violation {
  id: string
  impact: string
  targets: string[]
}

/**
 * axe-core's serious and critical findings on the page as it stands. The engine is evaluated through the
 * DevTools protocol: the pages' CSP allows no script, and the test must not weaken it.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axe.source)
  const found = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: typeof axe }).axe.run()
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', targets: v.nodes.map((n) => n.target.join(' ')) }))
  })
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
