import { expect } from 'bun:test'

/** Awaits a promise that must reject with `type`, and answers the error for closer checks. */
export async function failureOf<E extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  let caught: unknown
  try {
    await promise
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(type)
  return caught as E
}

/** The field paths of an InvalidError, sorted. */
export function pathsOf(error: { errors: Array<{ path: string }> }): string[] {
  return error.errors.map((e) => e.path).sort()
}
