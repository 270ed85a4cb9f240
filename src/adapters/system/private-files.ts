import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, readdirSync, readSync, statSync, writeSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'

// docs/privacy.md "Files on disk": what the service writes holds personal data or what protects it, so only
// its owner may read it: files 0600, folders 0700. A mode given to open() or mkdir() is narrowed by the
// umask, so each one is set again on the new file or folder itself.

const FILE = 0o600
const FOLDER = 0o700

/** Makes `folder` and the parents it lacks, each 0700; folders that exist keep their modes. */
export function makePrivateFolder(folder: string): void {
  const first = mkdirSync(folder, { recursive: true, mode: FOLDER })
  if (first === undefined) return
  // Every level made, from the first one down to `folder`.
  let made = first
  chmodSync(made, FOLDER)
  for (const part of relative(first, folder).split(sep).filter(Boolean)) {
    made = join(made, part)
    chmodSync(made, FOLDER)
  }
}

/** Opens a new file at `path` (refused when it exists), 0600; answers its descriptor. */
export function openPrivateFile(path: string): number {
  const fd = openSync(path, 'wx', FILE)
  fchmodSync(fd, FILE)
  return fd
}

/** Creates an empty file at `path` (0600) unless one is there, in a private folder made when missing. */
export function ensurePrivateFile(path: string): void {
  makePrivateFolder(dirname(path))
  if (!existsSync(path)) closeSync(openPrivateFile(path))
}

/** Copies `source` into a new file `target` that is 0600 from its first byte (a copy would take the source's mode). */
export function copyPrivately(source: string, target: string): void {
  const from = openSync(source, 'r')
  const to = openPrivateFile(target)
  try {
    const chunk = Buffer.alloc(1 << 20)
    for (let read = readSync(from, chunk); read > 0; read = readSync(from, chunk)) writeSync(to, chunk, 0, read)
  } finally {
    closeSync(from)
    closeSync(to)
  }
}

/**
 * The database's folder, when others may read or enter it, and the service's files in it that others may
 * read: the database and what is named after it (-wal, -shm, copies), and the generated secrets.
 */
export function openToOthers(databasePath: string): string[] {
  const folder = dirname(databasePath)
  if (!existsSync(folder)) return []
  const ours = (name: string) => name.startsWith(basename(databasePath)) || name.endsWith('.secret')
  const paths = [
    folder,
    ...readdirSync(folder)
      .filter(ours)
      .map((name) => join(folder, name)),
  ]
  return paths.filter((path) => (statSync(path, { throwIfNoEntry: false })?.mode ?? 0) & 0o077)
}
