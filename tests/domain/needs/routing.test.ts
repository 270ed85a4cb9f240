import { describe, expect, test } from 'bun:test'
import { routeByKeywords } from '../../../src/domain/needs/routing'
import type { Partner } from '../../../src/domain/partners/partner'
import { aPartner } from '../../support/builders'

const ORG = '6f1c2d7e-0b7a-4d5e-9a11-3c2b1a0f9e8d'
const partner = (name: string, overrides: Partial<Partner> = {}) => aPartner({ organizationId: ORG, name, ...overrides })

describe('public intake routing', () => {
  const fallback = partner('General intake', { isDefault: true })
  const food = partner('Food pantry', { keywords: ['food', 'groceries'] })
  const housing = partner('Housing desk', { keywords: ['rent', 'eviction'] })

  test('routes to the partner one of whose keywords is a word of the description', () => {
    expect(routeByKeywords('We have no food left this week', [fallback, food, housing])?.name).toBe('Food pantry')
    expect(routeByKeywords('Facing eviction next month', [fallback, food, housing])?.name).toBe('Housing desk')
  })

  test('takes the first matching partner in the given order', () => {
    const alsoFood = partner('Second pantry', { keywords: ['food'] })
    expect(routeByKeywords('food please', [fallback, alsoFood, food])?.name).toBe('Second pantry')
    expect(routeByKeywords('food please', [fallback, food, alsoFood])?.name).toBe('Food pantry')
  })

  test('prefers the first partner in order even when a later one matches an earlier word', () => {
    expect(routeByKeywords('rent and food', [fallback, food, housing])?.name).toBe('Food pantry')
  })

  test('matches regardless of case and punctuation', () => {
    expect(routeByKeywords('FOOD!!! Please, help.', [fallback, food])?.name).toBe('Food pantry')
    const shouting = partner('Shouting', { keywords: ['RENT'] })
    expect(routeByKeywords('my rent is due', [fallback, shouting])?.name).toBe('Shouting')
  })

  test('matches regardless of accents, on either side', () => {
    const cafe = partner('Café', { keywords: ['café'] })
    expect(routeByKeywords('the cafe is closed', [fallback, cafe])?.name).toBe('Café')
    const plain = partner('Plain', { keywords: ['nino'] })
    expect(routeByKeywords('ropa para mi niño', [fallback, plain])?.name).toBe('Plain')
  })

  test('matches whole words only, never a part of a word', () => {
    expect(routeByKeywords('my parent needs a rental car', [fallback, housing])?.name).toBe('General intake')
  })

  test('matches a keyword of several words when all of its words are in the description', () => {
    const utilities = partner('Utilities', { keywords: ['electric bill'] })
    expect(routeByKeywords('I cannot pay my Electric Bill', [fallback, utilities])?.name).toBe('Utilities')
    expect(routeByKeywords('the electric company called', [fallback, utilities])?.name).toBe('General intake')
  })

  test('falls back to the default partner when nothing matches', () => {
    expect(routeByKeywords('I need a ride to the clinic', [food, fallback, housing])?.name).toBe('General intake')
  })

  test('skips archived partners, even when their keyword matches', () => {
    const archivedFood = partner('Closed pantry', { keywords: ['food'], isArchived: true })
    expect(routeByKeywords('food', [fallback, archivedFood, food])?.name).toBe('Food pantry')
    expect(routeByKeywords('food', [fallback, archivedFood])?.name).toBe('General intake')
  })

  test('ignores keywords that hold no word', () => {
    const blank = partner('Blank', { keywords: ['', '  ', '!!'] })
    expect(routeByKeywords('anything at all', [blank, fallback])?.name).toBe('General intake')
  })

  test('answers nothing when nothing matches and there is no usable default', () => {
    expect(routeByKeywords('a ride', [food, housing])).toBeUndefined()
    expect(routeByKeywords('a ride', [partner('Archived default', { isDefault: true, isArchived: true })])).toBeUndefined()
  })

  describe('in English and Spanish', () => {
    test('"comida" routes as "groceries" does; a Spanish keyword routes its English words', () => {
      expect(routeByKeywords('Necesito comida para mis hijos', [fallback, food, housing])?.name).toBe('Food pantry')
      const vivienda = partner('Vivienda', { keywords: ['desalojo'] })
      expect(routeByKeywords('We got an eviction notice', [fallback, vivienda])?.name).toBe('Vivienda')
    })

    test('accents do not matter in translations either; a keyword of several words matches word by word', () => {
      const heat = partner('Heat', { keywords: ['heating'] })
      expect(routeByKeywords('No tenemos CALEFACCIÓN', [fallback, heat])?.name).toBe('Heat')
      const utilities = partner('Utilities', { keywords: ['electric bill'] })
      expect(routeByKeywords('no puedo pagar la factura de luz', [fallback, utilities])?.name).toBe('Utilities')
      expect(routeByKeywords('no hay luz', [fallback, utilities])?.name).toBe('General intake')
    })

    test('English words stay themselves: "food" does not catch "groceries", nor a translation part of a word', () => {
      const onlyFood = partner('Only food', { keywords: ['food'] })
      expect(routeByKeywords('need groceries', [fallback, onlyFood])?.name).toBe('General intake')
      expect(routeByKeywords('comidas', [fallback, onlyFood])?.name).toBe('General intake')
    })
  })
})
