// docs/api/needs.md "Partners": public intake is written in the person's language, a partner's keywords in
// whatever language its admin chose. Routing also takes a keyword's translations, so "groceries" routes
// "necesito comida" as it routes "need groceries", and "comida" routes "need groceries", with no word to add
// to any partner. Words as routing compares them: lower case, without accents.

/** English words of what people ask for, and their Spanish equivalents. */
const ENGLISH_TO_SPANISH: Readonly<Record<string, readonly string[]>> = {
  food: ['comida', 'alimentos', 'alimento'],
  groceries: ['comida', 'alimentos', 'despensa', 'viveres', 'mandado'],
  grocery: ['comida', 'alimentos', 'despensa', 'viveres', 'mandado'],
  meal: ['comida'],
  meals: ['comida', 'comidas'],
  hungry: ['hambre'],
  hunger: ['hambre'],
  pantry: ['despensa'],
  rent: ['renta', 'alquiler'],
  housing: ['vivienda'],
  eviction: ['desalojo', 'desahucio'],
  evicted: ['desalojo', 'desalojado', 'desalojada'],
  shelter: ['refugio', 'albergue'],
  homeless: ['indigente'],
  electricity: ['electricidad', 'luz'],
  electric: ['electricidad', 'luz'],
  bill: ['factura'],
  bills: ['facturas'],
  water: ['agua'],
  heating: ['calefaccion'],
  heat: ['calefaccion'],
  clothes: ['ropa'],
  clothing: ['ropa'],
  diapers: ['panales'],
  baby: ['bebe'],
  medicine: ['medicina', 'medicinas', 'medicamentos'],
  doctor: ['medico', 'doctor'],
  clinic: ['clinica'],
  transportation: ['transporte'],
  job: ['trabajo', 'empleo'],
  work: ['trabajo'],
  employment: ['empleo'],
  lawyer: ['abogado', 'abogada'],
  immigration: ['inmigracion'],
}

/** Each word's translations, both ways: an English word's Spanish ones and a Spanish word's English ones. */
const TRANSLATIONS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const both = new Map<string, Set<string>>()
  const add = (word: string, translation: string) => both.set(word, (both.get(word) ?? new Set()).add(translation))
  for (const [english, spanish] of Object.entries(ENGLISH_TO_SPANISH))
    for (const word of spanish) {
      add(english, word)
      add(word, english)
    }
  return both
})()

/** The word itself and its translations: what a keyword's word matches in a description. */
export function routingEquivalents(word: string): string[] {
  return [word, ...(TRANSLATIONS.get(word) ?? [])]
}
