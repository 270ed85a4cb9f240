import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { t } from './shared/i18n'
import { LanguageSwitch } from './shared/language-switch'
import { Administration, mayAdminister } from './administration/admin'
import { forgetCachedData, may, useProfileAnswer } from './shared/data'
import { FirstRun, useFirstRun } from './account/first-run'
import { ConstituentScreen, ConstituentSearch } from './people/constituents'
import { ImportScreen, importTexts } from './administration/imports'
import { Inbox } from './needs/inbox'
import { Matches } from './people/matches'
import { Messages, useWaitingMessages } from './messages/messages'
import { ProfileScreen } from './account/profile'
import { Login } from './account/login'
import { NeedScreen } from './needs/need'
import { NewNeed } from './needs/new-need'
import { Reports } from './needs/reports'
import { go, href, usePlace, type Place } from './shared/router'
import { ShortcutsHelp } from './shared/shortcuts-help'
import { logOut, onSessionChange, refreshSession, type SessionState } from './shared/session'

export function App() {
  const [session, setSession] = useState<SessionState>('unknown')
  const place = usePlace()
  useEffect(() => onSessionChange(setSession), [])
  // What was read for one member is not shown to the next.
  useEffect(() => {
    if (session !== 'signed-in') forgetCachedData()
  }, [session])
  // A session kept in this browser's cookie goes on without a new login.
  useEffect(() => void refreshSession(), [])

  if (session === 'unknown')
    return (
      <main>
        <p role="status">{t.loading}</p>
      </main>
    )
  if (session !== 'signed-in') return <Login lapsed={session === 'lapsed'} place={place} />
  return <SignedIn place={place} />
}

/** The bar and the screen of the place; the first run instead while it is due. */
function SignedIn({ place }: { place: Place }) {
  const main = useRef<HTMLElement>(null)
  const screen = place.path.join('/')
  const shown = useRef(false)
  const answer = useProfileAnswer()
  const profile = answer.profile
  const firstRun = useFirstRun(answer)
  const [firstRunDone, setFirstRunDone] = useState(false)
  const mayText = may(profile, 'needs:send-sms')
  const waiting = useWaitingMessages(mayText)
  // On another screen the keyboard goes on from its top, as after loading a page; moved before the paint,
  // so it never takes the focus from a field the member has already reached.
  useLayoutEffect(() => {
    if (shown.current) main.current?.focus()
    shown.current = true
  }, [screen, firstRunDone])

  if (firstRun === 'checking')
    return (
      <main>
        <p role="status">{t.loading}</p>
      </main>
    )
  return (
    <>
      <header class="bar">
        <span class="app-name">{t.appName}</span>
        <nav aria-label={t.main}>
          <a href={href(['needs'])} aria-current={current(place, 'needs')}>
            {t.needs}
          </a>
          {mayText && (
            <a href={href(['messages'])} aria-current={current(place, 'messages')}>
              {t.texts.nav}
              {waiting > 0 && (
                <>
                  {' '}
                  <span class="count">{waiting}</span>
                  <span class="visually-hidden"> {t.texts.waiting}</span>
                </>
              )}
            </a>
          )}
          {may(profile, 'constituents:read') && (
            <a href={href(['constituents'])} aria-current={current(place, 'constituents')}>
              {t.constituents}
            </a>
          )}
          {may(profile, 'reports:read') && (
            <a href={href(['reports'])} aria-current={current(place, 'reports')}>
              {t.reports}
            </a>
          )}
          {mayAdminister(profile) && (
            <a href={href(['admin'])} aria-current={current(place, 'admin')}>
              {t.administration}
            </a>
          )}
          {may(profile, 'records:import') && (
            <a href={href(['import'])} aria-current={current(place, 'import')}>
              {importTexts.nav}
            </a>
          )}
          <a href={href(['profile'])} aria-current={current(place, 'profile')}>
            {t.profileScreen.title}
          </a>
          {may(profile, 'needs:create') && (
            <button type="button" onClick={() => go(['new'])}>
              {t.newNeed}
            </button>
          )}
        </nav>
        <LanguageSwitch />
        <button type="button" class="secondary" onClick={() => void logOut()}>
          {t.logOut}
        </button>
        <ShortcutsHelp mayCreate={may(profile, 'needs:create')} />
      </header>
      <main ref={main} tabIndex={-1}>
        {firstRun && !firstRunDone && profile ? (
          <FirstRun settings={firstRun} profile={profile} onDone={() => setFirstRunDone(true)} />
        ) : (
          <Screen place={place} />
        )}
      </main>
    </>
  )
}

/** The screens of the bar; any other place is the inbox's. */
const AREAS = ['constituents', 'new', 'admin', 'profile', 'import', 'reports', 'messages']

/** `page` on the bar's link to the place's screen. */
function current(place: Place, area: string): 'page' | undefined {
  const shown = AREAS.includes(place.path[0] ?? '') ? place.path[0] : 'needs'
  return shown === area ? 'page' : undefined
}

function Screen({ place }: { place: Place }) {
  const [area, id] = place.path
  if (area === 'profile') return <ProfileScreen />
  if (area === 'needs' && id) return <NeedScreen key={id} reference={id} />
  if (area === 'new') return <NewNeed key={place.query.get('person') ?? ''} personId={place.query.get('person') ?? undefined} />
  if (area === 'reports') return <Reports query={place.query} />
  if (area === 'admin') return <Administration path={place.path.slice(1)} query={place.query} />
  if (area === 'import') return <ImportScreen />
  if (area === 'messages') return <Messages query={place.query} />
  if (area === 'constituents' && id === 'matches') return <Matches />
  if (area === 'constituents' && id) return <ConstituentScreen key={id} id={id} />
  if (area === 'constituents') return <ConstituentSearch query={place.query} />
  return <Inbox query={place.query} />
}
