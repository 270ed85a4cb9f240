import { LANGUAGES, language, t, type Language } from './i18n'

/** Each other language as a link that reloads the page in it, keeping the place. */
export function LanguageSwitch() {
  const others = (Object.keys(LANGUAGES) as Language[]).filter((other) => other !== language)
  return (
    <nav aria-label={t.language} class="languages">
      {others.map((other) => (
        <a key={other} href={`/?lang=${other}${location.hash}`} lang={other} hreflang={other}>
          {LANGUAGES[other].languageName}
        </a>
      ))}
    </nav>
  )
}
