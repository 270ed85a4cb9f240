import packageJson from '../../package.json' with { type: 'json' }

// Set by `npm run build` (bun build --define); absent when running from source.
declare const INTAKE_COMMIT: string | undefined

export const VERSION = packageJson.version

/** `intake 0.1.0 (3f2c1ab)`: what `intake --version` prints. */
export function versionLine(): string {
  return typeof INTAKE_COMMIT === 'string' ? `intake ${VERSION} (${INTAKE_COMMIT})` : `intake ${VERSION}`
}
