import { en, type Strings } from './strings-en'
import { es } from './strings-es'

export type { Strings }

export const LANGUAGES = { en, es } as const
export type Language = keyof typeof LANGUAGES

export const language: Language = document.documentElement.lang === 'es' ? 'es' : 'en'
/** The texts of the page's language. */
export const t: Strings = LANGUAGES[language]
