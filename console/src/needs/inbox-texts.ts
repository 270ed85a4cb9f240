import { language } from '../shared/i18n'

/** The inbox's own words (search, overdue, sort, page jump), one object per language of the same shape. */
const TEXTS = {
  en: {
    search: 'Search needs',
    searchHint: 'Words of the reference, the description or the person’s name',
    searchButton: 'Search',
    overdueOnly: 'Overdue only',
    overdue: 'Overdue',
    sort: ' (sort)',
    goToPage: 'Go to page',
    go: 'Go',
    moreThan: (page: number, total: number) => `Page ${page} (more than ${total.toLocaleString('en-US')} needs match)`,
  },
  es: {
    search: 'Buscar solicitudes',
    searchHint: 'Palabras de la referencia, la descripción o el nombre de la persona',
    searchButton: 'Buscar',
    overdueOnly: 'Solo vencidas',
    overdue: 'Vencida',
    sort: ' (ordenar)',
    goToPage: 'Ir a la página',
    go: 'Ir',
    moreThan: (page: number, total: number) => `Página ${page} (más de ${total.toLocaleString('es')} solicitudes coinciden)`,
  },
} as const
export const inboxTexts = TEXTS[language]
