import type { Server } from 'bun'
import { Elysia } from 'elysia'
import type { PublicIntakeForm } from '../../../application/needs/get-public-intake-form'
import type { UseCases } from '../../../application/use-cases'
import { ForbiddenError, InvalidError, NotFoundError } from '../../../domain/errors'
import { PUBLIC_DESCRIPTION } from '../../../domain/needs/need'
import { EMAIL, NAME } from '../../../domain/shared/fields'
import { PHONE_INPUT } from '../../../domain/shared/phone'
import type { CountRequest, RateLimits } from '../rate-limits'
import type { ForeignOriginOf, RequestSite } from '../request-site'
import { whereToGetHelp } from './help-services'
import { escapeHtml, html, messagePage, page, tooManyRequestsPage, type HtmlSet } from './layout'
import { chooseLanguage, STRINGS, type Language, type Strings } from './strings'

// docs/api/pages.md "Pages": the public intake form, for people without the staff app or JavaScript.

interface Field {
  name: string
  label: keyof Strings
  hint?: keyof Strings
  autocomplete?: string
  type?: 'text' | 'tel' | 'email'
  inputmode?: string
  maxlength: number
}

/** Only the description is required: the organization's settings name no other field (docs/api/pages.md "Pages"). */
const DESCRIPTION: Field = {
  name: 'description',
  label: 'descriptionLabel',
  hint: 'descriptionHint',
  maxlength: PUBLIC_DESCRIPTION.maxLength,
}
const PERSON: Field[] = [
  { name: 'firstName', label: 'firstNameLabel', autocomplete: 'given-name', maxlength: NAME.maxLength },
  { name: 'lastName', label: 'lastNameLabel', autocomplete: 'family-name', maxlength: NAME.maxLength },
  // Room for the spaces and brackets people write a number with; the stored form is E.164.
  { name: 'phone', label: 'phoneLabel', hint: 'phoneHint', autocomplete: 'tel', type: 'tel', maxlength: PHONE_INPUT.maxLength },
  { name: 'email', label: 'emailLabel', autocomplete: 'email', type: 'email', maxlength: EMAIL.maxLength },
]
const ADDRESS: Field[] = [
  { name: 'addressStreet', label: 'streetLabel', autocomplete: 'street-address', maxlength: NAME.maxLength },
  { name: 'addressCity', label: 'cityLabel', autocomplete: 'address-level2', maxlength: NAME.maxLength },
  { name: 'addressState', label: 'stateLabel', hint: 'stateHint', autocomplete: 'address-level1', maxlength: 2 },
  { name: 'addressZip', label: 'zipLabel', autocomplete: 'postal-code', inputmode: 'numeric', maxlength: 10 },
]
const LANGUAGE: Field = {
  name: 'preferredLanguage',
  label: 'preferredLanguageLabel',
  hint: 'preferredLanguageHint',
  autocomplete: 'language',
  maxlength: NAME.maxLength,
}
const OPTIONAL = [...PERSON, ...ADDRESS, LANGUAGE]
/** Hidden from people (and from assistive technology); a form that fills it is a robot's. */
const HONEYPOT = 'website'

type Values = Record<string, string>
type Errors = Record<string, string>

/** The form's optional answers as the public intake's `customFields`: blank ones left out. */
function customFieldsOf(values: Values): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const { name } of OPTIONAL) {
    const value = values[name]
    if (!value) continue
    // A phone goes as typed: the domain reads a national number as one of the organization's country.
    fields[name] = name === 'addressState' ? value.toUpperCase() : value
  }
  return fields
}

/** The domain reports in English by path; the page says it in the person's language, next to the field. */
function pageErrors(s: Strings, error: InvalidError, values: Values): Errors {
  const errors: Errors = {}
  for (const { path } of error.errors) {
    const name = path.replace(/^\/(customFields\/)?/, '')
    if (name === 'description') errors.description = values.description ? s.errorTooLong(PUBLIC_DESCRIPTION.maxLength) : s.errorRequired
    else if (name === 'phone') errors.phone = s.errorPhone
    else if (name === 'email') errors.email = s.errorEmail
    else if (name === 'addressState') errors.addressState = s.errorState
    else if (name === 'addressZip') errors.addressZip = s.errorZip
    else if (OPTIONAL.some((f) => f.name === name)) errors[name] = s.errorTooLong(NAME.maxLength)
    // Anything else (the whole answers too large) is only in the summary above the form.
  }
  return errors
}

function fieldHtml(s: Strings, field: Field, values: Values, errors: Errors, required = false): string {
  const { name } = field
  const error = errors[name]
  const described = [field.hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ')
  const attributes = [
    `id="${name}"`,
    `name="${name}"`,
    `maxlength="${field.maxlength}"`,
    field.autocomplete ? `autocomplete="${field.autocomplete}"` : '',
    field.inputmode ? `inputmode="${field.inputmode}"` : '',
    required ? 'required' : '',
    error ? 'aria-invalid="true"' : '',
    described ? `aria-describedby="${described}"` : '',
  ]
    .filter(Boolean)
    .join(' ')
  const value = escapeHtml(values[name] ?? '')
  const control =
    name === 'description'
      ? `<textarea ${attributes} rows="5">${value}</textarea>`
      : `<input ${attributes} type="${field.type ?? 'text'}" value="${value}">`
  return `<label for="${name}">${escapeHtml(s[field.label] as string)} <span class="hint">${escapeHtml(required ? s.required : s.optional)}</span></label>
${field.hint ? `<p class="hint" id="${name}-hint">${escapeHtml(s[field.hint] as string)}</p>\n` : ''}${error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>\n` : ''}${control}`
}

/** `novalidate`: the service's messages, in the page's language and next to each field, are the only ones. */
function intakeForm(s: Strings, action: string, values: Values = {}, errors: Errors = {}, alert?: string): string {
  const fields = (list: Field[]) => list.map((f) => fieldHtml(s, f, values, errors)).join('\n')
  return `${alert ? `<p class="error" role="alert">${escapeHtml(alert)}</p>\n` : ''}<form method="post" action="${escapeHtml(action)}" novalidate>
${fieldHtml(s, DESCRIPTION, values, errors, true)}
${fields(PERSON)}
<fieldset>
<legend>${escapeHtml(s.addressLegend)} <span class="hint">${escapeHtml(s.optional)}</span></legend>
<p class="hint">${escapeHtml(s.addressHint)}</p>
${fields(ADDRESS)}
</fieldset>
${fields([LANGUAGE])}
<div class="hp" aria-hidden="true"><label for="${HONEYPOT}">${escapeHtml(s.honeypotLabel)}</label><input id="${HONEYPOT}" name="${HONEYPOT}" type="text" tabindex="-1" autocomplete="off"></div>
<button type="submit">${escapeHtml(s.send)}</button>
</form>`
}

function receivedPage(lang: Language, organization: string, path: string, referenceNumber: string, reachable: boolean): string {
  const s = STRINGS[lang]
  return page(
    lang,
    s.receivedTitle,
    `<p role="status">${escapeHtml(s.referenceIs)} <strong class="reference">${escapeHtml(referenceNumber)}</strong></p>
<p>${escapeHtml(s.keepReference)}</p>
<p>${escapeHtml(reachable ? s.nextSteps(organization) : s.nextStepsNoContact(organization))}</p>
<p><a href="${escapeHtml(path)}">${escapeHtml(s.sendAnother)}</a></p>`,
    { banner: organization },
  )
}

type Query = Record<string, string | undefined>
interface Context {
  params: { organizationSlug: string }
  query: Query
  request: Request
  set: HtmlSet
}

export function intakePage(
  useCases: UseCases['needs'],
  directory: UseCases['services']['publishedDirectory'],
  rateLimits: RateLimits,
  requestSite: RequestSite,
) {
  const setting = ({ params, query, request }: Context) => {
    const { language, explicit } = chooseLanguage(query.lang, request.headers.get('accept-language'))
    // Put in a page only once the slug named an organization, so only a real slug is ever echoed.
    const path = `/intake/${params.organizationSlug}`
    return { lang: language, s: STRINGS[language], path, action: explicit ? `${path}?lang=${language}` : path }
  }
  /** The organization ('not found' for the 404 page), or 'forbidden' when another site's page may not post its form. */
  const organizationOf = async (slug: string, toPostFrom?: string) => {
    try {
      return await useCases.getPublicForm.execute(slug, toPostFrom)
    } catch (error) {
      if (error instanceof NotFoundError) return 'not found'
      if (error instanceof ForbiddenError) return 'forbidden'
      throw error
    }
  }
  /**
   * A slug the organization left: 308 to the same page under the slug it has now, the query kept (a post is posted
   * again there). Not cached: the organization may take the slug back.
   */
  const movedTo = (form: PublicIntakeForm, { request, set }: Context) => {
    set.headers.location = `/intake/${form.organizationSlug}${new URL(request.url).search}`
    return html('', set, 308)
  }
  /** "Where to get help": only an organization that publishes its directory shows it. */
  const helpOf = async (slug: string, lang: Language) => {
    try {
      return whereToGetHelp(lang, await directory.execute(slug))
    } catch (error) {
      if (error instanceof NotFoundError) return ''
      throw error
    }
  }
  const notFound = (lang: Language, set: HtmlSet) =>
    html(messagePage(lang, STRINGS[lang].notFoundTitle, STRINGS[lang].notFound, 'alert'), set, 404)

  return new Elysia({ name: 'intake-page', detail: { hide: true } })
    .use(rateLimits)
    .use(requestSite)
    .get('/intake/:organizationSlug', async (context) => {
      const { lang, s, path, action } = setting(context)
      const form = await organizationOf(context.params.organizationSlug)
      if (typeof form === 'string') return notFound(lang, context.set)
      if (form.organizationSlug !== context.params.organizationSlug) return movedTo(form, context)
      const help = await helpOf(form.organizationSlug, lang)
      const body = `<p>${escapeHtml(s.intakeIntro(form.organizationName))}</p>\n${intakeForm(s, action)}${help ? `\n${help}` : ''}`
      return html(page(lang, s.intakeTitle, body, { banner: form.organizationName, switchPath: path }), context.set, 200, form.formOrigins)
    })
    .post(
      '/intake/:organizationSlug',
      async (
        context: Context & { body: unknown; server: Server<unknown> | null; countRequest: CountRequest; foreignOriginOf: ForeignOriginOf },
      ) => {
        const { body, request, server, set, countRequest } = context
        const { lang, s, path, action } = setting(context)
        // The API's limit, counted before anything is read, so a flood of bad forms is limited too.
        const use = countRequest('publicIntake', request, server, set)
        if (use.exceeded) return tooManyRequestsPage(lang, use.resetSeconds, set)
        const form = await organizationOf(context.params.organizationSlug, context.foreignOriginOf(request))
        if (form === 'not found') return notFound(lang, set)
        if (form === 'forbidden') return html(messagePage(lang, s.intakeTitle, s.intakeForbidden, 'alert'), set, 403)
        if (form.organizationSlug !== context.params.organizationSlug) return movedTo(form, context)
        const options = { banner: form.organizationName, switchPath: path }

        const posted = (body ?? {}) as Record<string, unknown>
        const values: Values = {}
        for (const { name } of [DESCRIPTION, ...OPTIONAL]) if (typeof posted[name] === 'string') values[name] = posted[name].trim()
        const again = (errors: Errors, alert: string) =>
          html(page(lang, s.intakeTitle, intakeForm(s, action, values, errors, alert), options), set, 400, form.formOrigins)
        // Not a pretended success: a person whose browser filled it must know the request did not go.
        if (typeof posted[HONEYPOT] === 'string' && posted[HONEYPOT] !== '') return again({}, s.honeypotRefused)

        const customFields = customFieldsOf(values)
        try {
          // Another site's page was already judged against formOrigins when the form was looked up.
          const need = await useCases.submitPublic.execute(
            { organizationSlug: form.organizationSlug, description: values.description ?? '', customFields, language: lang },
            { channel: 'form' },
          )
          return html(
            receivedPage(lang, form.organizationName, action, need.referenceNumber, Boolean(customFields.phone || customFields.email)),
            set,
            200,
            form.formOrigins,
          )
        } catch (error) {
          if (!(error instanceof InvalidError)) throw error
          return again(pageErrors(s, error, values), s.fixErrors)
        }
      },
    )
}
