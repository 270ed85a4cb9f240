import { beforeEach, expect } from 'bun:test'
import type { UseCases } from '../../src/application/use-cases'
import type { Actor } from '../../src/domain/auth/actor'
import { InvalidError } from '../../src/domain/errors'
import type { Need } from '../../src/domain/needs/need'
import type { Partner } from '../../src/domain/partners/partner'
import { createWorld, type World } from '../support/world'
import { failureOf, pathsOf } from './failure-of'

// What the input rules tests share (input-rules-organization, input-rules-members-needs and
// input-rules-unicode.test.ts): before each test, an organization with a partner, a need and a staff member
// to aim calls at, and the check that a call is refused on exactly the fields it breaks.
// Each file calls `freshWorldEachTest()`; its tests reach the world through the bindings below.

export let world: World
export let useCases: UseCases
export let pantry: Partner
export let need: Need
export let member: Actor

/** Before each test of the file: a fresh organization with its partner, need and member. */
export function freshWorldEachTest(): void {
  beforeEach(async () => {
    world = await createWorld()
    useCases = world.useCases
    pantry = await world.partner({ name: 'Pantry', slaHours: 48 })
    need = await useCases.needs.create.execute(world.admin, { partnerId: pantry.id })
    member = await world.member('staff')
  })
}

/** A call that breaks rules, and the paths of the fields it breaks them on. */
export interface Case {
  name: string
  call: () => Promise<unknown>
  paths: string[]
}

export const text = (length: number) => 'x'.repeat(length)

export async function expectRefused({ call, paths }: Case) {
  const error = await failureOf(call(), InvalidError)
  expect(pathsOf(error)).toEqual([...paths].sort())
  for (const { message } of error.errors) expect(message).toMatch(/^(must|is|has) /)
}
