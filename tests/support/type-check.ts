import { join } from 'node:path'

const ROOT = join(import.meta.dir, '../..')
const TSC = join(ROOT, 'node_modules/typescript-native/bin/tsc')

/**
 * A client file type-checked alone, strictly, as a client project would compile it (no project config):
 * TypeScript's exit code and what it said. `types`: the ambient types it may use ('' for none).
 */
export function typeCheckClient(file: string, cwd: string, types: string) {
  const tsc = Bun.spawnSync(
    [
      TSC,
      '--ignoreConfig',
      '--noEmit',
      '--strict',
      '--noUncheckedIndexedAccess',
      '--skipLibCheck',
      '--target',
      'ES2022',
      '--module',
      'ESNext',
      '--moduleResolution',
      'bundler',
      '--lib',
      'ES2022,DOM',
      '--types',
      types,
      file,
    ],
    { cwd },
  )
  return { exitCode: tsc.exitCode, output: tsc.stdout.toString() + tsc.stderr.toString() }
}

/** A TypeScript project checked by its tsconfig (`-p`), from the repository's root. */
export function typeCheckProject(project: string) {
  const tsc = Bun.spawnSync([TSC, '--noEmit', '-p', project], { cwd: ROOT })
  return { exitCode: tsc.exitCode, output: tsc.stdout.toString() + tsc.stderr.toString() }
}
