import { useEffect, useState } from 'preact/hooks'
import { LIST_LIMIT } from '../../api-constants'
import { client, type Member, type Partner, type Permission, type Profile } from './api'
import { authorized } from './session'

// What several screens read once per page load: the partners (names for ids), the member's own profile (its
// id and what it may do) and, for those who may list them, the members (names for assignees).
let partners: Promise<Partner[]> | undefined
let profile: Promise<Profile | undefined> | undefined
let members: Promise<Member[]> | undefined

type ListAnswer<T> = { data?: T[]; error?: unknown; response: Response }

/**
 * Every item of a list, read page after page while the answer's `Link` names a next one (docs/api/conventions.md
 * "Lists"), so that a name past the first page is known too; a page that fails answers its failure.
 */
export async function everyPage<T>(read: (page: number) => Promise<ListAnswer<T>>): Promise<ListAnswer<T>> {
  const items: T[] = []
  for (let page = 1; ; page++) {
    const answer = await read(page)
    if (!answer.data) return answer
    items.push(...answer.data)
    if (!answer.data.length || !/rel="next"/.test(answer.response.headers.get('link') ?? '')) return { ...answer, data: items }
  }
}

/** Every partner, archived ones too. */
export const readPartners = () => everyPage((page) => client.GET('/api/partners', { params: { query: { page, limit: LIST_LIMIT } } }))

export function usePartners(): Partner[] {
  const [list, setList] = useState<Partner[]>([])
  useEffect(() => {
    partners ??= authorized(readPartners).then(({ data }) => data ?? [])
    void partners.then(setList)
  }, [])
  return list
}

export function useProfile(): Profile | undefined {
  return useProfileAnswer().profile
}

/** The profile, and whether its answer came (without a profile when the call failed). */
export function useProfileAnswer(): { profile?: Profile; answered: boolean } {
  const [answer, setAnswer] = useState<{ profile?: Profile; answered: boolean }>({ answered: false })
  useEffect(() => {
    profile ??= authorized(() => client.GET('/api/profile')).then(({ data }) => data)
    void profile.then((mine) => setAnswer({ ...(mine ? { profile: mine } : {}), answered: true }))
  }, [])
  return answer
}

/** Whether the member's role and profiles allow an action: which controls to show (the server still decides). */
export function may(mine: Profile | undefined, permission: Permission): boolean {
  return Boolean(mine?.permissions.includes(permission))
}

/** The organization's members, for those who may list them; none for the others. */
export function useMembers(mine: Profile | undefined): Member[] {
  const [list, setList] = useState<Member[]>([])
  const allowed = may(mine, 'members:list')
  useEffect(() => {
    if (!allowed) return
    members ??= authorized(() => everyPage((page) => client.GET('/api/members', { params: { query: { page, limit: LIST_LIMIT } } }))).then(
      ({ data }) => data ?? [],
    )
    void members.then(setList)
  }, [allowed])
  return list
}

/** What a member is called: the own "Me", another by name or email when the list names it. */
export function memberName(
  list: Member[],
  mine: Profile | undefined,
  id: string | undefined,
  names: { me: string; someone: string; nobody: string },
): string {
  if (!id) return names.nobody
  if (id === mine?.id) return names.me
  const member = list.find((m) => m.id === id)
  return member ? (member.fullName ?? member.email) : names.someone
}

/** Forgets what belonged to the member who logged out. */
export function forgetCachedData() {
  partners = undefined
  profile = undefined
  members = undefined
}

/** Forgets the partners read, once one is added or changed. */
export function forgetPartners() {
  partners = undefined
}

export function partnerName(list: Partner[], id: string): string {
  return list.find((partner) => partner.id === id)?.name ?? ''
}

export const formatDate = (iso: string | undefined, lang: string) =>
  iso ? new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(iso)) : '—'

export const formatDateTime = (iso: string, lang: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
