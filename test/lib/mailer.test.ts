import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { silentLogger, type Logger } from '@/lib/logger'
import { createSmtpMailer, MailerError } from '@/lib/mailer'
import { createHostCheck } from '@/lib/outbound'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startFakeSmtp, type FakeSmtp } from '../helpers/fake-smtp'

/**
 * The SMTP server is an admin-set address like a channel base URL (docs/operations/security.md#outbound-requests): loopback and
 * private networks only with `PrivateUpstreamsEnabled` and a match in `PrivateUpstreamHosts`, cloud
 * metadata never, checked on the address the connection really uses.
 */
describe('the SMTP mailer under the outbound rules', () => {
	let app: TestApp
	let smtp: FakeSmtp
	const warnings: Record<string, unknown>[] = []
	const logger: Logger = { ...silentLogger, warn: (message, fields) => void warnings.push({ message, ...fields }) }
	const message = { to: 'sailor@example.com', subject: 'Ahoy', html: '<p>Ahoy</p>' }

	beforeAll(async () => {
		smtp = await startFakeSmtp()
		app = await createTestApp(databaseTargets()[0]!, { logger })
		await app.dependencies.options.set('SMTPPort', String(smtp.port))
		await app.dependencies.options.set('SMTPAccount', 'ferry@mail.test')
		await app.dependencies.options.set('SMTPToken', 'smtp-token-never-shown')
	})
	afterAll(async () => {
		smtp.stop()
		await app.close()
	})
	beforeEach(async () => {
		warnings.length = 0
		await app.dependencies.options.set('PrivateUpstreamsEnabled', 'false')
		await app.dependencies.options.set('PrivateUpstreamHosts', '')
	})

	const send = (server: string) => app.dependencies.options.set('SMTPServer', server)
		.then(() => app.dependencies.mailer.send(message))
		.then(() => 'sent', (error: unknown) => error)

	test('without the private-upstream consent, a loopback SMTP server is never dialled, by address or by name', async () => {
		const before = smtp.connections
		for (const server of ['127.0.0.1', 'localhost', '2130706433']) expect(await send(server)).toBeInstanceOf(MailerError)
		expect(smtp.connections).toBe(before)
		expect(warnings.map((warning) => warning.reason).join(' ')).toContain('private, loopback or link-local')
		expect(JSON.stringify(warnings)).not.toContain('smtp-token-never-shown')
	})

	test('with the consent the mail is delivered, and the host list admits only the hosts it names', async () => {
		await app.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
		const delivered = smtp.messages.length
		expect(await send('127.0.0.1')).toBe('sent')
		expect(smtp.messages).toHaveLength(delivered + 1)

		await app.dependencies.options.set('PrivateUpstreamHosts', '10.0.0.0/8')
		const before = smtp.connections
		expect(await send('127.0.0.1')).toBeInstanceOf(MailerError)
		expect(smtp.connections).toBe(before)

		await app.dependencies.options.set('PrivateUpstreamHosts', '127.0.0.1')
		expect(await send('127.0.0.1')).toBe('sent')
		expect(smtp.messages).toHaveLength(delivered + 2)
	})

	test('the cloud metadata address is refused even with the consent', async () => {
		await app.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
		expect(await send('169.254.169.254')).toBeInstanceOf(MailerError)
		expect(String(warnings.at(-1)?.reason)).toContain('cloud metadata')
	})

	test('the name is resolved once and the connection goes to the checked address, so a rebinding answer is never used', async () => {
		await app.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
		await app.dependencies.options.set('PrivateUpstreamHosts', 'mail.test')
		let lookups = 0
		const rebinding = createHostCheck({
			privateUpstreams: {
				privateUpstreamsEnabled: () => app.dependencies.options.get('PrivateUpstreamsEnabled'),
				privateUpstreamHosts: () => [app.dependencies.options.get('PrivateUpstreamHosts')],
			},
			lookup: async () => (lookups++ === 0 ? ['127.0.0.1'] : ['169.254.169.254']),
			timeout: 1_000,
		})
		const mailer = createSmtpMailer(app.dependencies.options, logger, rebinding)
		await app.dependencies.options.set('SMTPServer', 'mail.test')
		const delivered = smtp.messages.length
		await mailer.send(message)
		expect(smtp.messages).toHaveLength(delivered + 1)
		expect(lookups).toBe(1)
	})
})

describe('checking a bare host for clients that connect themselves', () => {
	const lookups: string[] = []
	const check = createHostCheck({
		privateUpstreams: { privateUpstreamsEnabled: () => true, privateUpstreamHosts: () => [] },
		lookup: async (name) => {
			lookups.push(name)
			return ['127.0.0.1']
		},
		timeout: 1_000,
	})

	test('a host with a port, path or user in it is refused before any lookup', async () => {
		for (const host of ['mail.test:25', 'user@mail.test', 'mail.test/x', 'mail.test?x', '']) {
			expect(await check(host, 25, 'smtp', 'upstream').then(() => 'checked', (error: unknown) => (error as Error).name)).toBe('OutboundBlockedError')
		}
		expect(lookups).toEqual([])
	})

	test('names are resolved and presented for TLS; IP literals, bracketed or not, are used as they are', async () => {
		expect(await check('Mail.Test.', 587, 'smtp', 'upstream')).toEqual({ serverName: 'mail.test', addresses: ['127.0.0.1'] })
		const loopbackSix = { serverName: undefined, addresses: ['0:0:0:0:0:0:0:1'] }
		expect(await check('::1', 587, 'smtp', 'upstream')).toEqual(loopbackSix)
		expect(await check('[::1]', 587, 'smtp', 'upstream')).toEqual(loopbackSix)
		expect(lookups).toEqual(['mail.test'])
	})
})
