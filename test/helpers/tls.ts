/**
 * A self-signed certificate for 127.0.0.1, made with openssl for one test run: for clients that
 * speak only TLS to a Ferry on loopback (the openai SDK's Realtime sockets are wss: only). The
 * certificate is handed to the client as its trusted authority.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serviceUnavailable } from './services'

export interface Certificate {
	cert: string
	key: string
}

export function loopbackCertificate(): Certificate | undefined {
	if (!Bun.which('openssl')) return serviceUnavailable('openssl', 'install Debian\'s openssl') || undefined
	const directory = mkdtempSync(join(tmpdir(), 'ferry-tls-'))
	try {
		const made = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
			'-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(directory, 'key.pem'), '-out', join(directory, 'cert.pem')])
		if (!made.success) throw new Error(`openssl could not make a certificate: ${made.stderr.toString()}`)
		return { cert: readFileSync(join(directory, 'cert.pem'), 'utf8'), key: readFileSync(join(directory, 'key.pem'), 'utf8') }
	} finally {
		rmSync(directory, { recursive: true, force: true })
	}
}
