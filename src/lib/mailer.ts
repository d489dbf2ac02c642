/**
 * Outgoing mail. The SMTP mailer reads the SMTP options at every send, so a change in the system
 * settings applies to the next message. Neither the SMTP token nor a message body is ever logged:
 * bodies carry verification codes and reset links.
 */
import type { OptionStore } from '@/api/options/service'
import type { Logger } from './logger'

export type MailMessage = { to: string; subject: string; html: string }

export interface Mailer {
	/** Resolves once the relay accepted the message; throws a `MailerError` otherwise. */
	send(message: MailMessage): Promise<void>
}

/** A failure whose message may be shown to the caller as it is. */
export class MailerError extends Error {}

export const MAILER_MESSAGES = {
	notConfigured: 'SMTP is not configured',
	sendFailed: 'failed to send the email, please try again later',
} as const

const TIMEOUT_MILLISECONDS = 15_000

export function createSmtpMailer(options: OptionStore, logger: Logger): Mailer {
	return {
		async send({ to, subject, html }) {
			const host = options.get('SMTPServer').trim()
			const account = options.get('SMTPAccount').trim()
			const from = options.get('SMTPFrom').trim() || account
			if (!host || !from) throw new MailerError(MAILER_MESSAGES.notConfigured)
			// Loaded on the first mail: most gateways never send one.
			const { default: nodemailer } = await import('nodemailer')
			const transport = nodemailer.createTransport({
				host,
				port: options.get('SMTPPort'),
				// On: TLS from the first byte (port 465). Off: STARTTLS when the relay offers it.
				secure: options.get('SMTPSSLEnabled'),
				auth: account ? { user: account, pass: options.get('SMTPToken') } : undefined,
				connectionTimeout: TIMEOUT_MILLISECONDS,
				greetingTimeout: TIMEOUT_MILLISECONDS,
				socketTimeout: TIMEOUT_MILLISECONDS,
			})
			try {
				await transport.sendMail({ from: { name: options.get('SystemName') || 'Ferry', address: from }, to, subject, html })
			} catch (error) {
				logger.warn('sending an email failed', { host, reason: describeFailure(error) })
				throw new MailerError(MAILER_MESSAGES.sendFailed)
			} finally {
				transport.close()
			}
		},
	}
}

/** nodemailer's error code and the relay's reply line; neither carries the credentials. */
function describeFailure(error: unknown): string {
	const { code, response } = error as { code?: string; response?: string }
	return [code, response].filter(Boolean).join(' ') || 'unknown error'
}

/** For building mail bodies from values a user typed. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}
