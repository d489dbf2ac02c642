/**
 * Outgoing mail. The SMTP mailer reads the SMTP options at every send, so a change in the system
 * settings applies to the next message. Neither the SMTP token nor a message body is ever logged:
 * bodies carry verification codes and reset links.
 *
 * The SMTP server is reached under the outbound rules of admin-set addresses (docs/operations/security.md#outbound-requests, the
 * `upstream` policy): cloud metadata addresses never, private and loopback addresses only with
 * `PrivateUpstreamsEnabled` (and, when it is set, a match in `PrivateUpstreamHosts`). The name is
 * resolved and checked here, and nodemailer connects to the checked address with the name kept for
 * TLS, so it never resolves the name again.
 */
import type { OptionKey, OptionValue } from '@shared/option'
import type { Logger } from './logger'
import { OutboundError, type HostCheck } from './outbound'
import { inEnglish } from '@shared/messages'
import { MAILER_MESSAGES } from '@shared/messages/verification'

export type MailMessage = { to: string; subject: string; html: string }

export interface Mailer {
	/** Resolves once the relay accepted the message; throws a `MailerError` otherwise. */
	send(message: MailMessage): Promise<void>
}

/** A failure whose reason (a catalogue message) may be shown to the caller; its message is the English. */
export class MailerError extends Error {
	constructor(readonly reason: (typeof MAILER_MESSAGES)[keyof typeof MAILER_MESSAGES]) {
		super(inEnglish(reason))
	}
}

export { MAILER_MESSAGES }

export const MAILER_TIMEOUT_MILLISECONDS = 15_000
/** System codes (nodemailer's `originalCode`) of a connection that was never opened: the next checked address may work. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])

/** The SMTP settings, read at every send so that a change applies at once (the option store). */
type MailSettings = { get<Key extends 'SMTPServer' | 'SMTPAccount' | 'SMTPFrom' | 'SMTPPort' | 'SMTPToken' | 'SMTPSSLEnabled' | 'SystemName'>(key: Key & OptionKey): OptionValue<Key> }

export function createSmtpMailer(options: MailSettings, logger: Logger, checkHost: HostCheck): Mailer {
	return {
		async send({ to, subject, html }) {
			const host = options.get('SMTPServer').trim()
			const account = options.get('SMTPAccount').trim()
			const from = options.get('SMTPFrom').trim() || account
			if (!host || !from) throw new MailerError(MAILER_MESSAGES.notConfigured)
			const port = options.get('SMTPPort')
			let checked: Awaited<ReturnType<HostCheck>>
			try {
				checked = await checkHost(host, port, 'smtp', 'upstream')
			} catch (error) {
				logger.warn('sending an email refused', { host, reason: error instanceof OutboundError ? error.message : 'unknown error' })
				throw new MailerError(MAILER_MESSAGES.sendFailed)
			}
			// Loaded on the first mail: most gateways never send one.
			const { default: nodemailer } = await import('nodemailer')
			const message = { from: { name: options.get('SystemName') || 'Ferry', address: from }, to, subject, html }
			for (const [index, address] of checked.addresses.entries()) {
				const transport = nodemailer.createTransport({
					host: address,
					// SNI and the certificate check use the configured name, not the address connected to.
					...(checked.serverName ? { servername: checked.serverName } : {}),
					port,
					// On: TLS from the first byte (port 465). Off: STARTTLS when the relay offers it.
					secure: options.get('SMTPSSLEnabled'),
					auth: account ? { user: account, pass: options.get('SMTPToken') } : undefined,
					connectionTimeout: MAILER_TIMEOUT_MILLISECONDS,
					greetingTimeout: MAILER_TIMEOUT_MILLISECONDS,
					socketTimeout: MAILER_TIMEOUT_MILLISECONDS,
				})
				try {
					await transport.sendMail(message)
					return
				} catch (error) {
					const last = index === checked.addresses.length - 1
					if (!last && isConnectFailure(error)) continue
					logger.warn('sending an email failed', { host, reason: describeFailure(error) })
					throw new MailerError(MAILER_MESSAGES.sendFailed)
				} finally {
					transport.close()
				}
			}
		},
	}
}

function isConnectFailure(error: unknown): boolean {
	const { originalCode } = error as { originalCode?: unknown }
	return typeof originalCode === 'string' && CONNECT_FAILURES.has(originalCode)
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
