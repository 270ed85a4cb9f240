import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

// The inward rule (docs/architecture.md), checked by a machine: domain imports nothing outside itself,
// application imports only the domain and itself, adapters never import main.
const SRC = resolve(import.meta.dir, '../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  )
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g),
  ].map((m) => (m[1] ?? m[2] ?? m[3])!)
}

/** The layer an import lands in: a folder of src, or 'package:<name>' for anything else. */
function layerOf(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return `package:${specifier}`
  return relative(SRC, resolve(file, '..', specifier)).split('/')[0]!
}

// The container is the composition root's tool: every other layer is handed what it uses. The domain's one
// package is the phone rule's numbering plans (docs/architecture.md "Input rules"): pure functions and data.
const ALLOWED: Record<string, (layer: string) => boolean> = {
  domain: (layer) => layer === 'domain' || layer === 'package:libphonenumber-js',
  application: (layer) => layer === 'domain' || layer === 'application',
  adapters: (layer) => layer !== 'main' && layer !== 'package:inversify',
  main: () => true,
}

describe('dependencies point inward', () => {
  for (const layer of Object.keys(ALLOWED)) {
    test(`${layer} imports only what its layer may`, () => {
      const violations = sourceFiles(join(SRC, layer)).flatMap((file) =>
        importsOf(file)
          .filter((specifier) => !ALLOWED[layer]!(layerOf(file, specifier)))
          .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
      )
      expect(violations).toEqual([])
    })
  }

  test('the check sees imports at all', () => {
    const files = sourceFiles(join(SRC, 'application'))
    expect(files.some((file) => importsOf(file).some((s) => layerOf(file, s) === 'domain'))).toBe(true)
  })
})

// `npm install --omit=dev && npm start` runs the service (README): what the server and the console it bundles
// import at run time is a dependency, not a development tool.
describe('what a running service needs', () => {
  const manifest = JSON.parse(readFileSync(resolve(import.meta.dir, '../package.json'), 'utf8')) as { dependencies: Record<string, string> }
  const packageOf = (specifier: string) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/')

  test('every package the server and the console import is in dependencies', () => {
    const files = [...sourceFiles(SRC), ...sourceFiles(resolve(import.meta.dir, '../console/src'))]
    const packages = new Set(
      files.flatMap((file) => importsOf(file).filter((specifier) => !/^(\.|bun:|node:|bun$)/.test(specifier))).map(packageOf),
    )
    expect(packages.size).toBeGreaterThan(5)
    expect([...packages].filter((name) => !(name in manifest.dependencies)).sort()).toEqual([])
  })
})

describe('the composition root', () => {
  // A use case is one line of its area's module (src/main/composition): no other file of src/main names it.
  const useCaseNames = importsWithNames(join(SRC, 'application/use-cases.ts')).flatMap(({ names }) => names)
  const mainFiles = sourceFiles(join(SRC, 'main'))

  test('names each use case of UseCases in one composition module and nowhere else in src/main', () => {
    const namedIn = Object.fromEntries(
      useCaseNames.map((name) => [
        name,
        mainFiles.filter((file) => importsWithNames(file).some(({ names }) => names.includes(name))).map((file) => relative(SRC, file)),
      ]),
    )
    const misplaced = Object.entries(namedIn).filter(([, files]) => files.length !== 1 || !files[0]!.startsWith('main/composition/'))
    expect(misplaced).toEqual([])
  })

  test('the check sees the use cases at all', () => {
    expect(useCaseNames).toContain('CreateNeed')
  })
})

/** The names each import statement of the file brings in. */
function importsWithNames(file: string): Array<{ names: string[] }> {
  return [...readFileSync(file, 'utf8').matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from/g)].map((m) => ({
    names: m[1]!
      .split(',')
      .map((name) => name.replace(/^\s*type\s+/, '').trim())
      .filter(Boolean),
  }))
}
