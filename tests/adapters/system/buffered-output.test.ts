import { afterEach, describe, expect, test } from 'bun:test'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BufferedOutput } from '../../../src/adapters/system/buffered-output'

// docs/observability.md "Logs": lines gather and go out together, in order, all of them on a flush; a log
// that cannot be written never fails its caller.
const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function aFile() {
  const folder = mkdtempSync(join(tmpdir(), 'buffered-output-'))
  folders.push(folder)
  const path = join(folder, 'log')
  return { path, fd: openSync(path, 'a'), read: () => readFileSync(path, 'utf8') }
}

describe('buffered output', () => {
  test('keeps a few lines until flushed, then writes them all in order', () => {
    const file = aFile()
    const output = new BufferedOutput(file.fd)
    output.write('one\n')
    output.write('two ✓ ünïcödé\n')
    expect(file.read()).toBe('')
    output.flush()
    expect(file.read()).toBe('one\ntwo ✓ ünïcödé\n')
    output.flush()
    expect(file.read()).toBe('one\ntwo ✓ ünïcödé\n')
    closeSync(file.fd)
  })

  test('writes by itself once enough has gathered, every line once and in order', () => {
    const file = aFile()
    const output = new BufferedOutput(file.fd)
    const lines = Array.from({ length: 2000 }, (_, i) => `{"line":${i},"pad":"${'x'.repeat(40)}"}\n`)
    for (const line of lines) output.write(line)
    const before = file.read()
    expect(before.length).toBeGreaterThan(0)
    expect(lines.join('').startsWith(before)).toBe(true)
    output.flush()
    expect(file.read()).toBe(lines.join(''))
    closeSync(file.fd)
  })

  test('a descriptor that takes no writes drops the lines without failing the caller', () => {
    const output = new BufferedOutput(987_654) // no such descriptor: EBADF
    output.write('lost\n')
    expect(() => output.flush()).not.toThrow()
  })
})
