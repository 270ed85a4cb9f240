import type { MailLanguage } from '../../domain/members/notifications'

/** The two mails of an email change, in the member's language (docs/api/access.md "Changing an email"). */
export const EMAIL_CHANGE_MAIL: Record<MailLanguage, EmailChangeWords> = {
  en: {
    yourOrganization: 'your organization',
    hello: (fullName) => `Hello${fullName ? ` ${fullName}` : ''},`,
    confirmSubject: (name) => `Confirm your new email for ${name}`,
    confirm: (name, link) => [
      `This address was given as your new email for ${name} on the intake service.`,
      `Confirm it here within 24 hours: ${link}`,
      '',
      'The link works once. Until you follow it, your email stays as it was. If you did not expect this, ignore this message.',
    ],
    noticeSubject: (name) => `Your email for ${name} is changing`,
    notice: (name, email) => [
      `Someone asked to change your email for ${name} on the intake service to ${email}.`,
      'The change takes effect only once the new address confirms it.',
      '',
      'If you did not ask for it, tell an administrator of your organization and change your password.',
    ],
  },
  es: {
    yourOrganization: 'su organización',
    hello: (fullName) => `Hola${fullName ? ` ${fullName}` : ''}:`,
    confirmSubject: (name) => `Confirme su nuevo correo para ${name}`,
    confirm: (name, link) => [
      `Esta dirección se indicó como su nuevo correo para ${name} en el servicio de solicitudes.`,
      `Confírmela aquí en un plazo de 24 horas: ${link}`,
      '',
      'El enlace funciona una vez. Hasta que lo abra, su correo sigue igual. Si no esperaba este mensaje, puede ignorarlo.',
    ],
    noticeSubject: (name) => `Su correo para ${name} va a cambiar`,
    notice: (name, email) => [
      `Alguien pidió cambiar su correo para ${name} en el servicio de solicitudes a ${email}.`,
      'El cambio solo se aplica cuando la nueva dirección lo confirma.',
      '',
      'Si no lo pidió usted, avise a un(a) administrador(a) de su organización y cambie su contraseña.',
    ],
  },
}

interface EmailChangeWords {
  yourOrganization: string
  hello(fullName: string | undefined): string
  confirmSubject(name: string): string
  confirm(name: string, link: string): string[]
  noticeSubject(name: string): string
  notice(name: string, email: string): string[]
}
