import { useEffect, useState } from 'preact/hooks'
import { client, type Partner } from './api'
import { authorized } from './session'

// What several screens read once per page load: the partners (names for ids) and the member's own id.
let partners: Promise<Partner[]> | undefined
let myId: Promise<string | undefined> | undefined

export function usePartners(): Partner[] {
  const [list, setList] = useState<Partner[]>([])
  useEffect(() => {
    partners ??= authorized(() => client.GET('/api/partners', { params: { query: { limit: 100 } } })).then(({ data }) => data ?? [])
    void partners.then(setList)
  }, [])
  return list
}

export function useMyId(): string | undefined {
  const [id, setId] = useState<string>()
  useEffect(() => {
    myId ??= authorized(() => client.GET('/api/profile')).then(({ data }) => data?.id)
    void myId.then(setId)
  }, [])
  return id
}

/** Forgets what belonged to the member who logged out. */
export function forgetCachedData() {
  partners = undefined
  myId = undefined
}

export function partnerName(list: Partner[], id: string): string {
  return list.find((partner) => partner.id === id)?.name ?? ''
}

export const formatDate = (iso: string | undefined, lang: string) =>
  iso ? new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(iso)) : '—'

export const formatDateTime = (iso: string, lang: string) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
