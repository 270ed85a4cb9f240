/** The texts of the inbox's bulk bar and saved views, spread into strings-en.ts. */
export const inboxEn = {
  bulk: {
    title: 'Change the needs ticked',
    select: 'Select',
    selectNeed: (reference: string) => `Select ${reference}`,
    selectPage: 'Select every need on this page',
    clear: 'Clear selection',
    selected: (n: number) => (n === 1 ? '1 need selected' : `${n} needs selected`),
    unchanged: 'Unchanged',
    apply: (n: number) => (n === 1 ? 'Apply to 1 need' : `Apply to ${n} needs`),
    chooseSomething: 'Choose a status, an assignee or a partner first.',
    done: (reference: string) => `${reference}: changed.`,
    refused: (reference: string, reason: string) => `${reference}: not changed, ${reason}`,
    summary: (changed: number, all: number) => `${changed} of ${all} needs changed.`,
  },
  views: {
    title: 'Saved views',
    pick: 'Saved view',
    none: 'Choose a view',
    open: 'Show view',
    delete: 'Delete view',
    deleted: (name: string) => `View “${name}” deleted.`,
    name: 'Name for these filters',
    save: 'Save view',
    saved: (name: string) => `Filters saved as “${name}”.`,
  },
  /** The inbox's search, overdue filter, sort and page jump. */
  inboxSearch: {
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
  /** The inbox's period of creation or resolution, from a report's figure. */
  inboxPeriod: {
    created: (from: string, to: string) => `Created from ${from} to before ${to}`,
    resolved: (from: string, to: string) => `Resolved from ${from} to before ${to}`,
    clear: 'Clear the dates',
  },
}
