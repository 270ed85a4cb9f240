import { isIP } from 'node:net'
import type Nodemailer from 'nodemailer'
import type { EmailSender } from '../../application/ports/email'
import { ProviderError } from '../../application/ports/provider-error'
import type { EmailMessage, EmailProviderSettings } from '../../domain/messaging/email'
import { emailRefused, fromHeader, PROVIDER_TIMEOUT_MS } from './provider-failure'
import { SmtpHostPolicy } from './smtp-host-policy'

/** nodemailer, loaded at the first mail sent over SMTP: a service that never sends one keeps its memory. */
function nodemailerPackage(): typeof Nodemailer {
  return require('nodemailer')
}

/** Any SMTP server through nodemailer; the key is the server's URL with its credentials. */
export class SmtpEmailSender implements EmailSender {
  readonly provider = 'smtp' as const

  constructor(private readonly hosts = new SmtpHostPolicy()) {}

  async send(settings: EmailProviderSettings, message: EmailMessage) {
    const url = new URL(settings.apiKey)
    const user = decodeURIComponent(url.username)
    const pass = decodeURIComponent(url.password)
    const host = url.hostname.replace(/^\[|\]$/g, '')
    // Checked again at every send (settings outlive DNS answers), and the connection goes to the address checked.
    const address = await this.hosts.addressFor(host)
    if (!address)
      throw new ProviderError('Failed to send email', 'SMTP host refused: this deployment does not let organizations reach it', false)
    const transport = nodemailerPackage().createTransport({
      host: address,
      // TLS still verifies the certificate against the name in the settings.
      ...(address !== host && !isIP(host) ? { tls: { servername: host } } : {}),
      port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
      secure: url.protocol === 'smtps:',
      // smtp:// must upgrade with STARTTLS before credentials cross the network; only a local relay may skip it.
      requireTLS: url.protocol === 'smtp:' && !isLoopback(url.hostname),
      ...(user ? { auth: { user, pass } } : {}),
      connectionTimeout: PROVIDER_TIMEOUT_MS,
      greetingTimeout: PROVIDER_TIMEOUT_MS,
      socketTimeout: PROVIDER_TIMEOUT_MS,
    })
    const secrets = [settings.apiKey, user, pass]
    try {
      const info = await transport.sendMail({
        from: fromHeader(settings.fromEmail, settings.fromName),
        to: message.to,
        subject: message.subject,
        text: message.text,
      })
      return info.messageId ? { messageId: info.messageId } : {}
    } catch (error) {
      const failure = error as { responseCode?: number; response?: string; message?: string }
      // SMTP's 4xx replies are transient and 5xx permanent; no reply at all is a network failure.
      const code = failure.responseCode
      throw emailRefused('SMTP', code, failure.response ?? failure.message ?? String(error), secrets, code === undefined || code < 500)
    } finally {
      transport.close()
    }
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\./.test(hostname)
}
