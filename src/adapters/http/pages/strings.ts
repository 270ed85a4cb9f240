import { PASSWORD } from '../../../domain/members/member'

/** Every text the pages show, in one place: one object per language, each of the same shape. */
const en = {
  languageName: 'English',
  languageSwitch: 'Language',
  resetTitle: 'Choose a new password',
  resetDone: 'Your password is changed and your other sessions are ended. You can now log in with the new password.',
  inviteTitle: 'Accept your invitation',
  inviteFor: (organization: string, email: string) =>
    `${organization} invited ${email}. Choose your password: then the staff console opens, logged in.`,
  inviteUnknown: 'This invitation is unknown, already used or expired. Ask an administrator of your organization to send a new one.',
  logIn: 'Log in',
  forgotTitle: 'Forgot your password?',
  forgotHint: 'Give the email you log in with. We send a link to choose a new password, valid for an hour.',
  forgotSubmit: 'Send the link',
  forgotDone:
    'If an account uses this email, a link to choose a new password is on its way. It is valid for an hour. Check your spam folder too.',
  badEmail: 'This is not an email address, like name@example.org.',
  confirmEmailTitle: 'Confirm your new email',
  confirmEmailHint: 'Confirm that this address is your new email: from then on you log in with it and your mail comes here.',
  confirmEmailSubmit: 'Confirm my new email',
  confirmEmailDone: (email: string) => `Your email is now ${email}. Log in with it from now on.`,
  confirmEmailUnknown: 'This link is unknown, already used or expired. Ask for the change again from your profile.',
  confirmEmailTaken: 'Another member of your organization has this email now. Ask for the change again with another address.',
  askNewLink: 'Ask for a new link',
  passwordLabel: 'New password',
  passwordHint: `At least ${PASSWORD.minLength} characters. A few unrelated words are easy to remember and hard to guess.`,
  submit: 'Save the password',
  badToken: 'This link is unknown, already used or expired. Ask for a new one.',
  badPassword: `This password is not valid: it needs at least ${PASSWORD.minLength} characters.`,
  missingToken: 'This page needs the link from your email: open the link again.',
  forbidden: 'This form must be sent from this site. Open the link from your email again.',
  tooManyTitle: 'Too many requests',
  tooMany: (seconds: number) =>
    `Too many forms were sent from your connection. Wait ${seconds} seconds, then go back and send the form again.`,

  intakeTitle: 'Ask for help',
  intakeIntro: (organization: string) =>
    `Tell ${organization} what you need. Only the first question is required; the rest helps staff reach you.`,
  required: '(required)',
  optional: '(optional)',
  descriptionLabel: 'What do you need help with?',
  descriptionHint: 'In your own words: food, rent, a utility bill, anything else.',
  firstNameLabel: 'First name',
  lastNameLabel: 'Last name',
  phoneLabel: 'Phone',
  phoneHint: 'For example 503 555 0101; a number of another country with its code, as +44 20 7946 0958.',
  emailLabel: 'Email',
  addressLegend: 'Address',
  addressHint: 'Where you live, if you want help delivered or need help with housing.',
  streetLabel: 'Street and number',
  cityLabel: 'City',
  stateLabel: 'State',
  stateHint: 'Two letters, for example NY.',
  zipLabel: 'ZIP code',
  preferredLanguageLabel: 'Language you prefer',
  preferredLanguageHint: 'The language staff should use with you.',
  honeypotLabel: 'Leave this field empty',
  send: 'Send my request',
  fixErrors: 'Your request was not sent yet. Please correct what is marked below.',
  errorRequired: 'Tell us what you need help with.',
  errorTooLong: (max: number) => `This is too long: at most ${max} characters.`,
  errorPhone: 'Enter a phone number, for example 503 555 0101.',
  errorEmail: 'Enter an email address, for example name@example.com.',
  errorState: 'Enter the two-letter code of a US state or territory, for example NY.',
  errorZip: 'Enter a five-digit ZIP code.',
  honeypotRefused: 'Your request was not sent: the field "Leave this field empty" must stay empty. Please send the form again.',
  receivedTitle: 'Your request was received',
  referenceIs: 'Your reference number is',
  keepReference: 'Write it down: give it when you contact the organization about this request.',
  nextSteps: (organization: string) =>
    `What happens next: staff of ${organization} read every request and contact you by phone or email, usually within a few working days.`,
  nextStepsNoContact: (organization: string) =>
    `You gave no phone or email, so ${organization} cannot reach you: contact them and give your reference number.`,
  sendAnother: 'Send another request',
  notFoundTitle: 'Page not found',
  notFound: 'There is no intake form at this address. Check the link you were given.',
  intakeForbidden: 'This form must be sent from this site. Open the form again and send it from there.',
  helpTitle: 'Where to get help',
  helpIntro: (organization: string) => `Services of ${organization} and its partners you can also go to directly.`,
  helpHours: 'Hours',
  helpLanguages: 'Languages',
  helpPhone: 'Phone',
  helpWebsite: 'Website',
  helpAddress: 'Address',
}

export type Strings = typeof en

const es: Strings = {
  languageName: 'Español',
  languageSwitch: 'Idioma',
  resetTitle: 'Elija una nueva contraseña',
  resetDone: 'Su contraseña se cambió y sus otras sesiones se cerraron. Ya puede iniciar sesión con la nueva contraseña.',
  inviteTitle: 'Acepte su invitación',
  inviteFor: (organization: string, email: string) =>
    `${organization} invitó a ${email}. Elija su contraseña: después se abre la consola del personal, con la sesión iniciada.`,
  inviteUnknown: 'Esta invitación es desconocida, ya se usó o venció. Pida a un administrador de su organización que le envíe otra.',
  logIn: 'Iniciar sesión',
  forgotTitle: '¿Olvidó su contraseña?',
  forgotHint:
    'Escriba el correo electrónico con el que inicia sesión. Le enviamos un enlace para elegir una nueva contraseña, válido por una hora.',
  forgotSubmit: 'Enviar el enlace',
  forgotDone:
    'Si una cuenta usa este correo electrónico, le enviamos un enlace para elegir una nueva contraseña. Es válido por una hora. Revise también la carpeta de correo no deseado.',
  badEmail: 'Esto no es una dirección de correo electrónico, como nombre@ejemplo.org.',
  confirmEmailTitle: 'Confirme su nuevo correo',
  confirmEmailHint: 'Confirme que esta dirección es su nuevo correo: desde entonces inicia sesión con ella y sus mensajes llegan aquí.',
  confirmEmailSubmit: 'Confirmar mi nuevo correo',
  confirmEmailDone: (email: string) => `Su correo ahora es ${email}. Inicie sesión con él de ahora en adelante.`,
  confirmEmailUnknown: 'Este enlace no es válido, ya se usó o venció. Pida el cambio de nuevo desde su perfil.',
  confirmEmailTaken: 'Otro miembro de su organización tiene ahora este correo. Pida el cambio de nuevo con otra dirección.',
  askNewLink: 'Pedir un enlace nuevo',
  passwordLabel: 'Nueva contraseña',
  passwordHint: `Al menos ${PASSWORD.minLength} caracteres. Unas cuantas palabras sin relación entre sí son fáciles de recordar y difíciles de adivinar.`,
  submit: 'Guardar la contraseña',
  badToken: 'Este enlace no es válido, ya se usó o venció. Pida uno nuevo.',
  badPassword: `Esta contraseña no es válida: necesita al menos ${PASSWORD.minLength} caracteres.`,
  missingToken: 'Esta página necesita el enlace de su correo electrónico: abra el enlace de nuevo.',
  forbidden: 'Este formulario debe enviarse desde este sitio. Abra de nuevo el enlace de su correo electrónico.',
  tooManyTitle: 'Demasiadas solicitudes',
  tooMany: (seconds: number) =>
    `Se enviaron demasiados formularios desde su conexión. Espere ${seconds} segundos, vuelva atrás y envíe el formulario de nuevo.`,

  intakeTitle: 'Pida ayuda',
  intakeIntro: (organization: string) =>
    `Cuéntele a ${organization} qué necesita. Solo la primera pregunta es obligatoria; lo demás ayuda al personal a comunicarse con usted.`,
  required: '(obligatorio)',
  optional: '(opcional)',
  descriptionLabel: '¿Con qué necesita ayuda?',
  descriptionHint: 'Con sus propias palabras: comida, alquiler, una factura de servicios, cualquier otra cosa.',
  firstNameLabel: 'Nombre',
  lastNameLabel: 'Apellido',
  phoneLabel: 'Teléfono',
  phoneHint: 'Por ejemplo 503 555 0101; un número de otro país con su código, como +52 55 1234 5678.',
  emailLabel: 'Correo electrónico',
  addressLegend: 'Dirección',
  addressHint: 'Donde vive, si quiere que le entreguen la ayuda o necesita ayuda con la vivienda.',
  streetLabel: 'Calle y número',
  cityLabel: 'Ciudad',
  stateLabel: 'Estado',
  stateHint: 'Dos letras, por ejemplo NY.',
  zipLabel: 'Código postal (ZIP)',
  preferredLanguageLabel: 'Idioma que prefiere',
  preferredLanguageHint: 'El idioma en que el personal debe hablarle.',
  honeypotLabel: 'Deje este campo vacío',
  send: 'Enviar mi solicitud',
  fixErrors: 'Su solicitud aún no se envió. Corrija lo que está marcado abajo.',
  errorRequired: 'Díganos con qué necesita ayuda.',
  errorTooLong: (max: number) => `Es demasiado largo: como máximo ${max} caracteres.`,
  errorPhone: 'Escriba un número de teléfono, por ejemplo 503 555 0101.',
  errorEmail: 'Escriba un correo electrónico, por ejemplo nombre@ejemplo.com.',
  errorState: 'Escriba el código de dos letras de un estado o territorio de EE. UU., por ejemplo NY.',
  errorZip: 'Escriba un código postal de cinco dígitos.',
  honeypotRefused: 'Su solicitud no se envió: el campo "Deje este campo vacío" debe quedar vacío. Envíe el formulario de nuevo.',
  receivedTitle: 'Recibimos su solicitud',
  referenceIs: 'Su número de referencia es',
  keepReference: 'Anótelo: dígalo cuando se comunique con la organización sobre esta solicitud.',
  nextSteps: (organization: string) =>
    `Qué sigue: el personal de ${organization} lee cada solicitud y se comunicará con usted por teléfono o correo electrónico, normalmente en unos pocos días hábiles.`,
  nextStepsNoContact: (organization: string) =>
    `No dejó teléfono ni correo electrónico, así que ${organization} no puede comunicarse con usted: comuníquese con la organización y dé su número de referencia.`,
  sendAnother: 'Enviar otra solicitud',
  notFoundTitle: 'Página no encontrada',
  notFound: 'No hay un formulario de solicitud en esta dirección. Revise el enlace que le dieron.',
  intakeForbidden: 'Este formulario debe enviarse desde este sitio. Abra el formulario de nuevo y envíelo desde allí.',
  helpTitle: 'Dónde pedir ayuda',
  helpIntro: (organization: string) => `Servicios de ${organization} y de sus socios a los que también puede acudir directamente.`,
  helpHours: 'Horario',
  helpLanguages: 'Idiomas',
  helpPhone: 'Teléfono',
  helpWebsite: 'Sitio web',
  helpAddress: 'Dirección',
}

export const STRINGS = { en, es } as const satisfies Record<string, Strings>
export type Language = keyof typeof STRINGS
export const LANGUAGES = Object.keys(STRINGS) as Language[]

function isLanguage(value: string | undefined): value is Language {
  return value !== undefined && Object.hasOwn(STRINGS, value)
}

/**
 * The page's language: `?lang=` when it names one of ours (the switch link), else the first of ours in
 * Accept-Language by its weights, else English. `explicit` says whether the query chose it, so that a
 * form posts back with the same choice.
 */
export function chooseLanguage(query: string | undefined, acceptLanguage: string | null): { language: Language; explicit: boolean } {
  if (isLanguage(query)) return { language: query, explicit: true }
  const ranges = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
      return { primary: tag.trim().toLowerCase().split('-')[0], weight: q === undefined ? 1 : Number(q), index }
    })
    .filter((r) => r.weight > 0 && !Number.isNaN(r.weight))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  const found = ranges.find((r) => isLanguage(r.primary))?.primary
  return { language: isLanguage(found) ? found : 'en', explicit: false }
}
