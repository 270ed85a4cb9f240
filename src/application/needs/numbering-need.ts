import type { Need } from '../../domain/needs/need'

/**
 * A need just recorded whose reference number the store may still be taking (`NeedRepository.insertMany`):
 * what names the number awaits it, the rest is written meanwhile.
 */
export type NumberingNeed = Omit<Need, 'referenceNumber'> & { referenceNumber: Promise<string> }

/** A need a message names: its reference number known, or still being taken. */
export type NeedToName = Omit<Need, 'referenceNumber'> & { referenceNumber: string | Promise<string> }

/** The need with its number, once the store has taken it. */
export async function numbered(need: NumberingNeed): Promise<Need> {
  return { ...need, referenceNumber: await need.referenceNumber }
}
