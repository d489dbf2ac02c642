/**
 * A small SMTP relay on 127.0.0.1 that records what it is given: enough of RFC 5321 (EHLO/HELO,
 * AUTH PLAIN and LOGIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT) for nodemailer without TLS.
 */
import type { Socket } from 'bun'

export type ReceivedMail = {
	from: string
	to: string[]
	/** The user and password the client authenticated with, if it did. */
	auth?: { user: string; pass: string }
	headers: Record<string, string>
	subject: string
	/** The decoded text/html body. */
	html: string
}

type Session = {
	buffer: string
	mode: 'command' | 'data' | 'auth-plain' | 'auth-login-user' | 'auth-login-pass'
	from: string
	to: string[]
	dataLines: string[]
	auth?: { user: string; pass: string }
	pendingUser: string
}

const decodeBase64 = (text: string) => Buffer.from(text, 'base64').toString('utf8')

function decodeQuotedPrintable(text: string): string {
	const bytes: number[] = []
	const joined = text.replace(/=\r?\n/g, '')
	for (let index = 0; index < joined.length; index++) {
		const hex = joined.slice(index + 1, index + 3)
		if (joined[index] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
			bytes.push(parseInt(hex, 16))
			index += 2
		} else {
			bytes.push(...Buffer.from(joined[index]!, 'utf8'))
		}
	}
	return Buffer.from(bytes).toString('utf8')
}

function splitEntity(raw: string) {
	const separator = raw.search(/\r?\n\r?\n/)
	const headerText = separator < 0 ? raw : raw.slice(0, separator)
	const body = separator < 0 ? '' : raw.slice(separator).replace(/^\r?\n\r?\n/, '')
	const headers: Record<string, string> = {}
	for (const line of headerText.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
		const colon = line.indexOf(':')
		if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
	}
	return { headers, body }
}

function decodeEntity(headers: Record<string, string>, body: string): string {
	const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase()
	if (encoding === 'quoted-printable') return decodeQuotedPrintable(body)
	if (encoding === 'base64') return decodeBase64(body.replace(/\s+/g, ''))
	return body
}

function htmlOf(headers: Record<string, string>, body: string): string {
	const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1]
	if (!boundary) return decodeEntity(headers, body)
	for (const part of body.split(`--${boundary}`)) {
		const entity = splitEntity(part.replace(/^\r?\n/, ''))
		if ((entity.headers['content-type'] ?? '').toLowerCase().startsWith('text/html')) return decodeEntity(entity.headers, entity.body)
	}
	return ''
}

function parseMessage(session: Session): ReceivedMail {
	const { headers, body } = splitEntity(session.dataLines.join('\r\n'))
	return { from: session.from, to: session.to, auth: session.auth, headers, subject: headers.subject ?? '', html: htmlOf(headers, body) }
}

export async function startFakeSmtp() {
	const messages: ReceivedMail[] = []
	/** TCP connections accepted, whether or not a message followed. */
	const stats = { connections: 0 }

	function handleLine(socket: Socket<Session>, line: string) {
		const session = socket.data
		const reply = (text: string) => socket.write(`${text}\r\n`)
		if (session.mode === 'data') {
			if (line === '.') {
				messages.push(parseMessage(session))
				session.mode = 'command'
				session.dataLines = []
				return reply('250 2.0.0 OK queued')
			}
			session.dataLines.push(line.startsWith('..') ? line.slice(1) : line)
			return
		}
		if (session.mode === 'auth-plain') {
			const [, user = '', pass = ''] = decodeBase64(line).split('\0')
			session.auth = { user, pass }
			session.mode = 'command'
			return reply('235 2.7.0 Authentication successful')
		}
		if (session.mode === 'auth-login-user') {
			session.pendingUser = decodeBase64(line)
			session.mode = 'auth-login-pass'
			return reply(`334 ${Buffer.from('Password:').toString('base64')}`)
		}
		if (session.mode === 'auth-login-pass') {
			session.auth = { user: session.pendingUser, pass: decodeBase64(line) }
			session.mode = 'command'
			return reply('235 2.7.0 Authentication successful')
		}
		const [verb = '', ...rest] = line.split(' ')
		const argument = rest.join(' ')
		switch (verb.toUpperCase()) {
			case 'EHLO':
				return reply('250-fake-smtp greets you\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME')
			case 'HELO':
				return reply('250 fake-smtp')
			case 'AUTH': {
				const [method = '', initial] = argument.split(' ')
				if (method.toUpperCase() === 'PLAIN') {
					if (!initial) {
						session.mode = 'auth-plain'
						return reply('334 ')
					}
					const [, user = '', pass = ''] = decodeBase64(initial).split('\0')
					session.auth = { user, pass }
					return reply('235 2.7.0 Authentication successful')
				}
				if (method.toUpperCase() === 'LOGIN') {
					session.mode = 'auth-login-user'
					return reply(`334 ${Buffer.from('Username:').toString('base64')}`)
				}
				return reply('504 5.5.4 Unrecognized authentication type')
			}
			case 'MAIL':
				session.from = /<([^>]*)>/.exec(argument)?.[1] ?? ''
				session.to = []
				return reply('250 2.1.0 OK')
			case 'RCPT':
				session.to.push(/<([^>]*)>/.exec(argument)?.[1] ?? '')
				return reply('250 2.1.5 OK')
			case 'DATA':
				session.mode = 'data'
				return reply('354 End data with <CR><LF>.<CR><LF>')
			case 'RSET':
				session.from = ''
				session.to = []
				return reply('250 2.0.0 OK')
			case 'NOOP':
				return reply('250 2.0.0 OK')
			case 'QUIT':
				reply('221 2.0.0 Bye')
				return socket.end()
			default:
				return reply('502 5.5.2 Command not recognized')
		}
	}

	const listener = Bun.listen<Session>({
		hostname: '127.0.0.1',
		port: 0,
		socket: {
			open(socket) {
				stats.connections++
				socket.data = { buffer: '', mode: 'command', from: '', to: [], dataLines: [], pendingUser: '' }
				socket.write('220 fake-smtp ESMTP ready\r\n')
			},
			data(socket, chunk) {
				socket.data.buffer += chunk.toString('utf8')
				let newline = socket.data.buffer.indexOf('\r\n')
				while (newline >= 0) {
					const line = socket.data.buffer.slice(0, newline)
					socket.data.buffer = socket.data.buffer.slice(newline + 2)
					handleLine(socket, line)
					newline = socket.data.buffer.indexOf('\r\n')
				}
			},
		},
	})

	return {
		host: '127.0.0.1',
		port: listener.port,
		messages,
		get connections() {
			return stats.connections
		},
		stop: () => listener.stop(true),
	}
}

export type FakeSmtp = Awaited<ReturnType<typeof startFakeSmtp>>
