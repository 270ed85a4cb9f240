import { encode } from 'uqr'
import type { OrganizationSettings } from './api'
import { CopyButton } from './copy-button'
import { t } from './i18n'

// docs/console.md "Administration": where people ask the organization for help, to share, print and embed.

type Organization = Pick<OrganizationSettings, 'name' | 'slug' | 'publicBaseUrl' | 'formOrigins'>

/** The public intake form's address (docs/api/pages.md "Pages"), under the service's PUBLIC_BASE_URL. */
export function intakeUrl({ publicBaseUrl, slug }: Pick<OrganizationSettings, 'publicBaseUrl' | 'slug'>): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/intake/${slug}`
}

/** The link with its copy button: the first run shows it too. */
export function IntakeLinkField({ organization }: { organization: Pick<OrganizationSettings, 'publicBaseUrl' | 'slug'> }) {
  const url = intakeUrl(organization)
  return (
    <>
      <label for="intake-link">{t.intakeLink}</label>
      <input id="intake-link" value={url} readOnly onFocus={(event) => event.currentTarget.select()} />
      <CopyButton text={url} label={t.copyLink} done={t.copied} byHand={t.copyLinkByHand} />
    </>
  )
}

/**
 * The link, its QR code (drawn here from the link, one SVG path: nothing inline the console's CSP would refuse, no
 * outside service) on a poster that alone is printed, and the iframe a partner site listed in formOrigins pastes.
 */
export function IntakeLinkSection({ organization }: { organization: Organization }) {
  const url = intakeUrl(organization)
  const snippet = `<iframe src="${url}" title="${attribute(t.intakeFrameTitle(organization.name))}" width="100%" height="900"></iframe>`
  return (
    <section aria-labelledby="intake-link-title">
      <h2 id="intake-link-title">{t.intakeLinkTitle}</h2>
      <p>{t.intakeLinkIntro}</p>
      <IntakeLinkField organization={organization} />
      <figure class="intake-poster">
        <p class="intake-poster-name">{organization.name}</p>
        <QrCode text={url} label={t.intakeQrCode(organization.name)} />
        <figcaption>
          {t.intakePosterCaption} <strong>{url}</strong>
        </figcaption>
      </figure>
      <button type="button" onClick={printPoster}>
        {t.printQrCode}
      </button>
      <label for="intake-embed">{t.embedSnippet}</label>
      <textarea id="intake-embed" value={snippet} readOnly rows={3} aria-describedby="intake-embed-hint" />
      <p id="intake-embed-hint" class={organization.formOrigins.length > 0 ? 'meta' : 'meta warning'}>
        {organization.formOrigins.length > 0 ? t.embedHint : t.embedNoOrigins}
      </p>
      <CopyButton text={snippet} label={t.copySnippet} done={t.copied} byHand={t.copySnippetByHand} />
    </section>
  )
}

/** Said under the slug while it differs from the one saved: what becomes of the old link (docs/api/organization.md). */
export function SlugChangeWarning({ saved, typed }: { saved: string; typed: string }) {
  return <div role="status">{typed !== saved && typed !== '' && <p class="warning">{t.slugChangeWarning(saved, typed)}</p>}</div>
}

/** A QR code of `text` as an image with its name; medium error correction, the standard quiet zone of 4 modules. */
function QrCode({ text, label }: { text: string; label: string }) {
  const { size, data } = encode(text, { ecc: 'M', border: 4 })
  const dark = data.flatMap((row, y) => row.map((on, x) => (on ? `M${x},${y}h1v1h-1z` : ''))).join('')
  return (
    <svg class="qr-code" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={dark} fill="#000" />
    </svg>
  )
}

/** Prints the poster alone: the class hides the rest of the page on paper (theme.css) until the print is done. */
function printPoster() {
  document.body.classList.add('printing-poster')
  addEventListener('afterprint', () => document.body.classList.remove('printing-poster'), { once: true })
  print()
}

/** The snippet is HTML: the organization's name goes in an attribute. */
function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}
