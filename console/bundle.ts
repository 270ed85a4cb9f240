import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface ConsoleFile {
  /** The file's name, with its content's hash: `main-1a2b3c4d.js`. */
  name: string
  text: string
}

/**
 * The staff console bundled by Bun: its script and stylesheet, minified, named by their content's hash.
 * Imported `with { type: 'macro' }`, it runs when the server's code is transpiled (at `bun src/main/cli.ts`
 * and `bun test`) and when `bun build --compile` makes the binary, which so holds the files as strings.
 * A macro may not call `Bun.build` (the bundler would wait on itself): it runs the same Bun's CLI.
 */
export function consoleBundle(): ConsoleFile[] {
  const out = mkdtempSync(join(tmpdir(), 'intake-console-'))
  try {
    const build = Bun.spawnSync([
      process.execPath,
      'build',
      join(import.meta.dir, 'src/main.tsx'),
      '--target=browser',
      '--minify',
      '--entry-naming=[name]-[hash].[ext]',
      '--asset-naming=[name]-[hash].[ext]',
      '--outdir',
      out,
    ])
    if (build.exitCode !== 0) throw new Error(`the console did not bundle:\n${build.stderr.toString()}`)
    return readdirSync(out).map((name) => ({ name, text: readFileSync(join(out, name), 'utf8') }))
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}
