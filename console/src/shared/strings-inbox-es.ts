import type { inboxEn } from './strings-inbox-en'

/** The Spanish of strings-inbox-en.ts, the same keys. */
export const inboxEs: typeof inboxEn = {
  bulk: {
    title: 'Cambiar las solicitudes marcadas',
    select: 'Elegir',
    selectNeed: (reference) => `Elegir ${reference}`,
    selectPage: 'Elegir todas las solicitudes de esta página',
    clear: 'Quitar la selección',
    selected: (n) => (n === 1 ? '1 solicitud elegida' : `${n} solicitudes elegidas`),
    unchanged: 'Sin cambio',
    apply: (n) => (n === 1 ? 'Aplicar a 1 solicitud' : `Aplicar a ${n} solicitudes`),
    chooseSomething: 'Elija antes un estado, una persona asignada o un socio.',
    done: (reference) => `${reference}: cambiada.`,
    refused: (reference, reason) => `${reference}: sin cambios, ${reason}`,
    summary: (changed, all) => `${changed} de ${all} solicitudes cambiadas.`,
  },
  views: {
    title: 'Vistas guardadas',
    pick: 'Vista guardada',
    none: 'Elija una vista',
    open: 'Mostrar la vista',
    delete: 'Borrar la vista',
    deleted: (name) => `Vista «${name}» borrada.`,
    name: 'Nombre para estos filtros',
    save: 'Guardar la vista',
    saved: (name) => `Filtros guardados como «${name}».`,
  },
  /** The inbox's search, overdue filter, sort and page jump. */
  inboxSearch: {
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
  inboxPeriod: {
    created: (from: string, to: string) => `Creadas desde ${from} hasta antes de ${to}`,
    resolved: (from: string, to: string) => `Resueltas desde ${from} hasta antes de ${to}`,
    clear: 'Quitar las fechas',
  },
}
