import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
	classifyAddress, createOutboundClient, isValidHostEntry, OutboundBlockedError, OutboundNetworkError, OutboundTimeoutError,
	OutboundTooLargeError, parseHostList, parseIp, type BlockReason, type HostLookup, type OutboundRequestInit,
} from '@/lib/outbound'
import { createAddressPolicy, parseTarget } from '@/lib/outbound/target'
import { silentLogger, type Logger } from '@/lib/logger'
import { openCanary, openSilentListener, openStalledListener, type Canary } from '../helpers/canary'

// Settings the client reads on every request, as it reads the options store in the app.
const settings = { enabled: false, hosts: [] as string[] }
const privateUpstreams = { privateUpstreamsEnabled: () => settings.enabled, privateUpstreamHosts: () => settings.hosts }

// Names the tests resolve themselves; any other name goes to the real resolver (only `localhost` works here).
const names = new Map<string, string[]>()
const lookups: string[] = []
const lookup: HostLookup = async (name) => {
	lookups.push(name)
	return names.get(name) ?? (await Bun.dns.lookup(name, { family: 0 })).map((entry) => entry.address)
}

const warnings: Record<string, unknown>[] = []
const logger: Logger = { ...silentLogger, warn: (message, fields) => void warnings.push({ message, ...fields }) }

const certificate = makeCertificate('secure.test')
const client = createOutboundClient({ privateUpstreams, lookup, logger, ca: certificate?.cert })

const canary = openCanary('127.0.0.1')
const canary6 = openIpv6Canary()
const stalled = await openStalledListener()
const silent = openSilentListener()
const MEBIBYTE = 1024 * 1024
const encoder = new TextEncoder()

/** The behaviour server: redirects, echoes, slow and endless answers. */
const upstream = Bun.serve({
	hostname: '127.0.0.1',
	port: 0,
	idleTimeout: 30,
	async fetch(request) {
		const url = new URL(request.url)
		const to = url.searchParams.get('to')
		if (url.pathname === '/to' && to) return new Response(null, { status: Number(url.searchParams.get('status') ?? 302), headers: { location: to } })
		const chain = /^\/chain\/(\d+)$/.exec(url.pathname)
		if (chain) {
			const left = Number(chain[1])
			return left === 0 ? new Response('end of chain') : new Response(null, { status: 302, headers: { location: `/chain/${left - 1}` } })
		}
		if (url.pathname === '/echo') {
			return Response.json({ method: request.method, body: await request.text(), headers: Object.fromEntries(request.headers) })
		}
		if (url.pathname === '/slow') {
			await Bun.sleep(3_000)
			return new Response('late')
		}
		if (url.pathname === '/stall') {
			return new Response(new ReadableStream({ start: (controller) => controller.enqueue(encoder.encode('first chunk')) }))
		}
		if (url.pathname === '/huge') {
			let sent = 0
			return new Response(new ReadableStream({
				pull(controller) {
					if (sent >= 4 * MEBIBYTE) return controller.close()
					controller.enqueue(new Uint8Array(64 * 1024))
					sent += 64 * 1024
				},
			}))
		}
		if (url.pathname === '/declared-huge') return new Response(new Uint8Array(8 * MEBIBYTE))
		return new Response('upstream')
	},
})
const upstreamOrigin = `http://127.0.0.1:${upstream.port}`

afterAll(() => {
	canary.stop()
	canary6?.stop()
	stalled?.close()
	silent.stop()
	upstream.stop(true)
})

beforeEach(() => {
	settings.enabled = false
	settings.hosts = []
	names.clear()
	lookups.length = 0
	warnings.length = 0
	canary.reset()
	canary6?.reset()
})

function openIpv6Canary(): Canary | undefined {
	try {
		return openCanary('::1')
	} catch {
		console.warn('\n*** IPv6 loopback unavailable: the [::1] canary cases are skipped ***\n')
		return undefined
	}
}

function makeCertificate(name: string): { cert: string; key: string } | undefined {
	if (!Bun.which('openssl')) {
		console.warn('\n*** openssl not found: the https pinning cases are skipped ***\n')
		return undefined
	}
	const directory = mkdtempSync(join(tmpdir(), 'ferry-outbound-'))
	try {
		const made = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${name}`,
			'-addext', `subjectAltName=DNS:${name}`, '-keyout', join(directory, 'key.pem'), '-out', join(directory, 'cert.pem')])
		if (!made.success) return undefined
		return { cert: readFileSync(join(directory, 'cert.pem'), 'utf8'), key: readFileSync(join(directory, 'key.pem'), 'utf8') }
	} finally {
		rmSync(directory, { recursive: true, force: true })
	}
}

async function refusal(url: string | URL | Request, init?: OutboundRequestInit): Promise<OutboundBlockedError> {
	const error = await client(url, init).then(() => undefined, (caught: unknown) => caught)
	if (!(error instanceof OutboundBlockedError)) throw new Error(`expected a refusal, got ${String(error)}`)
	return error
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
	return promise.then(() => new Error('expected the call to fail'), (error: unknown) => error)
}

describe('address classes', () => {
	test.each([
		['127.0.0.1', 'private'], ['10.1.2.3', 'private'], ['172.31.255.255', 'private'], ['192.168.0.1', 'private'],
		['100.64.0.1', 'private'], ['::1', 'private'], ['fd12::1', 'private'], ['fe80::1', 'private'],
		['169.254.169.254', 'metadata'], ['169.254.1.1', 'metadata'], ['fd00:ec2::254', 'metadata'], ['100.100.100.200', 'metadata'],
		['0.0.0.0', 'reserved'], ['0.1.2.3', 'reserved'], ['::', 'reserved'], ['224.0.0.1', 'reserved'], ['255.255.255.255', 'reserved'],
		['240.0.0.1', 'reserved'], ['ff02::1', 'reserved'], ['::127.0.0.1', 'reserved'], ['2001:db8::1', 'reserved'],
		['::ffff:127.0.0.1', 'private'], ['::ffff:169.254.169.254', 'metadata'], ['64:ff9b::7f00:1', 'private'],
		['64:ff9b::a9fe:a9fe', 'metadata'], ['2002:7f00:1::', 'private'], ['2002:a9fe:a9fe::1', 'metadata'],
		['8.8.8.8', 'public'], ['172.32.0.1', 'public'], ['2606:4700::1111', 'public'], ['::ffff:8.8.8.8', 'public'], ['64:ff9b::808:808', 'public'],
	])('%s is %s', (address, expected) => {
		expect(classifyAddress(parseIp(address)!)).toBe(expected as never)
	})

	test('a host is refused when any one of its resolved addresses is private', () => {
		const policy = createAddressPolicy(privateUpstreams)
		const target = parseTarget('http://mixed.test/')
		const addresses = ['8.8.8.8', '127.0.0.1'].map((address) => parseIp(address)!)
		expect(() => policy.check(target, addresses, 'service')).toThrow(OutboundBlockedError)
		expect(() => policy.check(target, [addresses[0]!], 'service')).not.toThrow()
	})
})

describe('the private upstream allowlist', () => {
	test('splits on commas, spaces and new lines and drops empty entries', () => {
		expect(parseHostList(' ollama.lan,10.0.0.0/8\n\n*.lan  192.168.1.5 ')).toEqual(['ollama.lan', '10.0.0.0/8', '*.lan', '192.168.1.5'])
		expect(parseHostList('')).toEqual([])
	})

	test('accepts names, wildcards, addresses and ranges and refuses ports, paths and bad ranges', () => {
		for (const entry of ['ollama.lan', '*.lan', '127.0.0.1', '::1', '10.0.0.0/8', 'fd00::/8', 'Bücher.lan']) expect(isValidHostEntry(entry)).toBe(true)
		for (const entry of ['ollama.lan:11434', 'http://ollama.lan', 'a/b', '10.0.0.0/33', '10.0.0.0/x', '::1/129']) expect(isValidHostEntry(entry)).toBe(false)
	})
})

describe('refused targets never reach the network', () => {
	const port = canary.port
	const cases: [string, BlockReason][] = [
		[`http://127.0.0.1:${port}/`, 'private_address'],
		[`http://localhost:${port}/`, 'private_address'],
		[`http://LOCALHOST:${port}/`, 'private_address'],
		[`http://127.1:${port}/`, 'private_address'],
		[`http://0.0.0.0:${port}/`, 'reserved_address'],
		[`http://0:${port}/`, 'reserved_address'],
		[`http://2130706433:${port}/`, 'private_address'],
		[`http://0x7f000001:${port}/`, 'private_address'],
		[`http://0x7f.1:${port}/`, 'private_address'],
		[`http://017700000001:${port}/`, 'private_address'],
		[`http://0177.0.0.1:${port}/`, 'private_address'],
		[`http://[::ffff:127.0.0.1]:${port}/`, 'private_address'],
		[`http://[::ffff:7f00:1]:${port}/`, 'private_address'],
		[`http://127.0.0.1:${port}#@evil.example/`, 'private_address'],
		[`http://user:secret@127.0.0.1:${port}/`, 'credentials'],
		[`http://evil.example@127.0.0.1:${port}/`, 'credentials'],
	]
	if (canary6) {
		cases.push([`http://[::1]:${canary6.port}/`, 'private_address'], [`http://[0:0:0:0:0:0:0:1]:${canary6.port}/`, 'private_address'],
			[`http://[::]:${canary6.port}/`, 'reserved_address'])
	}
	const dialled = () => canary.connections + (canary6?.connections ?? 0)

	test.each(cases)('%s is refused (%s) for user content with no connection made', async (url, reason) => {
		expect((await refusal(url)).reason).toBe(reason)
		expect(dialled()).toBe(0)
	})

	test.each(cases.filter(([, reason]) => reason !== 'credentials'))('%s is refused for an upstream while private upstreams are off', async (url) => {
		await refusal(url, { policy: 'upstream' })
		expect(dialled()).toBe(0)
	})

	test('the same spellings do reach the canary through plain fetch, so the zero counts are meaningful', async () => {
		for (const [url] of cases) {
			const before = dialled()
			await fetch(url).then((response) => response.text()).catch(() => {})
			expect({ url, reached: dialled() > before }).toEqual({ url, reached: true })
		}
	})

	test('a name that resolves to loopback is refused after resolving it, without connecting', async () => {
		names.set('internal.test', ['127.0.0.1'])
		expect((await refusal(`http://internal.test:${port}/`)).reason).toBe('private_address')
		expect(lookups).toEqual(['internal.test'])
		expect(dialled()).toBe(0)
	})

	test.each([
		['http://169.254.169.254/latest/meta-data/iam/', 'metadata_address'],
		['http://[fd00:ec2::254]/', 'metadata_address'],
		['http://100.100.100.200/latest/meta-data/', 'metadata_address'],
		['http://[64:ff9b::a9fe:a9fe]/', 'metadata_address'],
		['http://224.0.0.1/', 'reserved_address'],
		['http://255.255.255.255/', 'reserved_address'],
	])('%s is refused (%s) under every policy', async (url, reason) => {
		settings.enabled = true
		for (const policy of ['user-content', 'service', 'upstream'] as const) expect((await refusal(url, { policy })).reason).toBe(reason as BlockReason)
	})

	test('a name resolving to the metadata address is refused', async () => {
		names.set('metadata.google.internal', ['169.254.169.254'])
		settings.enabled = true
		expect((await refusal('http://metadata.google.internal/computeMetadata/v1/', { policy: 'upstream' })).reason).toBe('metadata_address')
	})

	test('only http and https are fetched', async () => {
		for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'gopher://127.0.0.1:70/', 'data:text/plain,hi', `ws://127.0.0.1:${port}/`]) {
			expect((await refusal(url)).reason).toBe('scheme')
		}
		expect((await refusal('not a url')).reason).toBe('invalid_url')
		expect(dialled()).toBe(0)
	})

	test('Bun options that would route around the checks are ignored', async () => {
		const init = { unix: '/tmp/nothing.sock', proxy: `http://127.0.0.1:${port}`, tls: { rejectUnauthorized: false } } as OutboundRequestInit
		expect((await refusal(`http://127.0.0.1:${port}/`, init)).reason).toBe('private_address')
		expect(dialled()).toBe(0)
	})

	test('refusals are logged with the reason and without path, query or credentials', async () => {
		const error = await refusal(`http://user:sk-secret-1@127.0.0.1:${port}/v1/bot-sk-secret-2/x?key=sk-secret-3`)
		await refusal(`http://127.0.0.1:${port}/v1/bot-sk-secret-2/x?key=sk-secret-3`)
		expect(warnings).toHaveLength(2)
		expect(warnings[1]).toMatchObject({ target: `http://127.0.0.1:${port}`, reason: 'private_address', policy: 'user-content' })
		expect(`${error.message} ${JSON.stringify(warnings)}`).not.toContain('sk-secret')
	})
})

describe('private upstreams with the super admin\'s consent', () => {
	const port = canary.port

	test('an upstream on an allowlisted address reaches the canary once, with the original host header', async () => {
		settings.enabled = true
		settings.hosts = ['127.0.0.1']
		const response = await client(`http://127.0.0.1:${port}/v1/models?limit=1`, { policy: 'upstream' })
		expect(await response.text()).toBe('canary')
		expect(canary.requests).toEqual([{ method: 'GET', path: '/v1/models?limit=1', host: `127.0.0.1:${port}` }])
	})

	test('an empty allowlist lets upstreams reach every private address', async () => {
		settings.enabled = true
		expect(await (await client(`http://localhost:${port}/`, { policy: 'upstream' })).text()).toBe('canary')
		expect(canary.requests).toHaveLength(1)
	})

	test('an allowlisted name, wildcard or range admits the host, and other private hosts stay refused', async () => {
		settings.enabled = true
		names.set('ollama.lan', ['127.0.0.1'])
		names.set('gpu.cluster.lan', ['127.0.0.1'])
		settings.hosts = ['ollama.lan']
		expect((await client(`http://ollama.lan:${port}/`, { policy: 'upstream' })).status).toBe(200)
		expect((await refusal(`http://127.0.0.1:${port}/`, { policy: 'upstream' })).reason).toBe('private_address')
		expect((await refusal(`http://gpu.cluster.lan:${port}/`, { policy: 'upstream' })).reason).toBe('private_address')
		settings.hosts = ['*.lan']
		expect((await client(`http://gpu.cluster.lan:${port}/`, { policy: 'upstream' })).status).toBe(200)
		settings.hosts = ['127.0.0.0/8']
		expect((await client(`http://gpu.cluster.lan:${port}/`, { policy: 'upstream' })).status).toBe(200)
		expect(canary.requests).toHaveLength(3)
	})

	test('turning the option off applies to the next request', async () => {
		settings.enabled = true
		expect((await client(`http://127.0.0.1:${port}/`, { policy: 'upstream' })).status).toBe(200)
		settings.enabled = false
		await refusal(`http://127.0.0.1:${port}/`, { policy: 'upstream' })
		expect(canary.requests).toHaveLength(1)
	})

	test('user content and services never reach private hosts, whatever the option says', async () => {
		settings.enabled = true
		for (const policy of ['user-content', 'service'] as const) expect((await refusal(`http://127.0.0.1:${port}/`, { policy })).reason).toBe('private_address')
		expect(canary.connections).toBe(0)
	})

	test('metadata and unspecified addresses stay refused even when the allowlist names them', async () => {
		settings.enabled = true
		settings.hosts = ['169.254.0.0/16', '0.0.0.0/8', 'fd00:ec2::254', '100.100.100.200']
		expect((await refusal('http://169.254.169.254/', { policy: 'upstream' })).reason).toBe('metadata_address')
		expect((await refusal('http://[fd00:ec2::254]/', { policy: 'upstream' })).reason).toBe('metadata_address')
		expect((await refusal('http://100.100.100.200/', { policy: 'upstream' })).reason).toBe('metadata_address')
		expect((await refusal(`http://0.0.0.0:${port}/`, { policy: 'upstream' })).reason).toBe('reserved_address')
		expect(canary.connections).toBe(0)
	})
})

describe('connecting to the checked address', () => {
	const port = canary.port

	test('the host name is resolved once and the server sees it in the Host header while the connection goes to the address', async () => {
		settings.enabled = true
		names.set('upstream.test', ['127.0.0.1'])
		const response = await client(`http://upstream.test:${port}/v1/chat?x=1`, { policy: 'upstream' })
		expect(await response.text()).toBe('canary')
		expect(canary.requests).toEqual([{ method: 'GET', path: '/v1/chat?x=1', host: `upstream.test:${port}` }])
		expect(lookups).toEqual(['upstream.test'])
		expect(response.url).toBe(`http://upstream.test:${port}/v1/chat?x=1`)
	})

	test('a caller\'s Host header cannot point the request at another virtual host', async () => {
		settings.enabled = true
		names.set('upstream.test', ['127.0.0.1'])
		await client(`http://upstream.test:${port}/`, { policy: 'upstream', headers: { host: 'admin.internal' } })
		expect(canary.requests[0]!.host).toBe(`upstream.test:${port}`)
	})

	test('a rebinding resolver is asked once per hop, so its second answer is never used', async () => {
		settings.enabled = true
		settings.hosts = ['rebind.test']
		let answers = 0
		const rebinding = createOutboundClient({
			privateUpstreams,
			lookup: async () => (answers++ === 0 ? ['127.0.0.1'] : ['169.254.169.254']),
		})
		expect(await (await rebinding(`http://rebind.test:${port}/`, { policy: 'upstream' })).text()).toBe('canary')
		expect(answers).toBe(1)
	})

	test('when the first address refuses the connection the next checked address is tried', async () => {
		settings.enabled = true
		names.set('dual.test', ['127.0.0.3', '127.0.0.1'])
		expect(await (await client(`http://dual.test:${port}/`, { policy: 'upstream' })).text()).toBe('canary')
	})

	test.skipIf(!canary6)('an IPv6 upstream is reached by its bracketed address', async () => {
		settings.enabled = true
		names.set('six.test', ['::1'])
		expect(await (await client(`http://six.test:${canary6!.port}/`, { policy: 'upstream' })).text()).toBe('canary')
		expect(canary6!.requests[0]!.host).toBe(`six.test:${canary6!.port}`)
	})

	describe.skipIf(!certificate)('https', () => {
		const seen: string[] = []
		const secure = certificate && Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			tls: certificate,
			fetch(request) {
				seen.push(request.headers.get('host') ?? '')
				return new Response('secure')
			},
		})
		afterAll(() => secure?.stop(true))
		beforeEach(() => void (seen.length = 0))

		test('connects to the checked address while verifying the certificate for the original name', async () => {
			settings.enabled = true
			names.set('secure.test', ['127.0.0.1'])
			const response = await client(`https://secure.test:${secure!.port}/`, { policy: 'upstream' })
			expect(await response.text()).toBe('secure')
			expect(seen).toEqual([`secure.test:${secure!.port}`])
		})

		test('a name the certificate does not cover fails the handshake before any request is sent', async () => {
			settings.enabled = true
			names.set('impostor.test', ['127.0.0.1'])
			const error = await failure(client(`https://impostor.test:${secure!.port}/?key=sk-secret`, { policy: 'upstream' }))
			expect(error).toBeInstanceOf(OutboundNetworkError)
			expect((error as OutboundNetworkError).code).toMatch(/TLS|CERT/)
			expect((error as Error).message).not.toContain('sk-secret')
			expect(seen).toEqual([])
		})
	})
})

describe('redirects', () => {
	const redirector = (path: string) => `http://redirector.test:${upstream.port}${path}`
	const via = (to: string, status = 302) => redirector(`/to?status=${status}&to=${encodeURIComponent(to)}`)

	beforeEach(() => {
		settings.enabled = true
		settings.hosts = ['redirector.test', 'other.test']
		names.set('redirector.test', ['127.0.0.1'])
		names.set('other.test', ['127.0.0.1'])
		names.set('internal.test', ['127.0.0.1'])
	})

	const targets: [string, BlockReason][] = [
		[`http://127.0.0.1:${canary.port}/`, 'private_address'],
		[`http://localhost:${canary.port}/`, 'private_address'],
		[`http://2130706433:${canary.port}/`, 'private_address'],
		[`http://internal.test:${canary.port}/`, 'private_address'],
		[`http://0.0.0.0:${canary.port}/`, 'reserved_address'],
		['http://169.254.169.254/latest/meta-data/', 'metadata_address'],
	]
	if (canary6) targets.push([`http://[::1]:${canary6.port}/`, 'private_address'])

	test.each(targets)('an allowed host redirecting to %s is refused at the second hop (%s)', async (to, reason) => {
		expect((await refusal(via(to), { policy: 'upstream' })).reason).toBe(reason)
		expect(canary.connections + (canary6?.connections ?? 0)).toBe(0)
	})

	test('every redirect status is checked, not only 302', async () => {
		for (const status of [301, 303, 307, 308]) await refusal(via(`http://127.0.0.1:${canary.port}/`, status), { policy: 'upstream' })
		expect(canary.connections).toBe(0)
	})

	test('redirects within allowed hosts are followed and the answer says so', async () => {
		const response = await client(redirector('/chain/3'), { policy: 'upstream' })
		expect(await response.text()).toBe('end of chain')
		expect(response.redirected).toBe(true)
		expect(response.url).toBe(redirector('/chain/0'))
	})

	test('more redirects than the limit are refused', async () => {
		expect((await refusal(redirector('/chain/6'), { policy: 'upstream' })).reason).toBe('too_many_redirects')
		expect((await refusal(redirector('/chain/3'), { policy: 'upstream', maxRedirects: 2 })).reason).toBe('too_many_redirects')
		expect((await client(redirector('/chain/5'), { policy: 'upstream' })).status).toBe(200)
	})

	test('303, and 301/302 after POST, continue as GET without the body; 307 and 308 keep both', async () => {
		const post = { policy: 'upstream' as const, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } }
		for (const status of [301, 302, 303]) {
			const echo = await (await client(via(redirector('/echo'), status), post)).json() as { method: string; body: string; headers: Record<string, string> }
			expect({ status, method: echo.method, body: echo.body, type: echo.headers['content-type'] }).toEqual({ status, method: 'GET', body: '', type: undefined as never })
		}
		for (const status of [307, 308]) {
			const echo = await (await client(via(redirector('/echo'), status), post)).json() as { method: string; body: string }
			expect({ status, method: echo.method, body: echo.body }).toEqual({ status, method: 'POST', body: '{"a":1}' })
		}
	})

	test('a hop to another origin drops credential headers; a hop within the origin keeps them', async () => {
		const headers = { authorization: 'Bearer sk-upstream', 'x-api-key': 'sk-claude', 'x-goog-api-key': 'sk-gemini', accept: 'application/json' }
		const same = await (await client(via('/echo'), { policy: 'upstream', headers })).json() as { headers: Record<string, string> }
		expect(same.headers).toMatchObject({ authorization: 'Bearer sk-upstream', 'x-api-key': 'sk-claude' })
		const other = `http://other.test:${upstream.port}/echo`
		const moved = await (await client(via(other), { policy: 'upstream', headers })).json() as { headers: Record<string, string> }
		expect(moved.headers.accept).toBe('application/json')
		expect(moved.headers.host).toBe(`other.test:${upstream.port}`)
		for (const name of ['authorization', 'x-api-key', 'x-goog-api-key']) expect(moved.headers[name]).toBeUndefined()
	})

	test('a 307 cannot replay a streamed body', async () => {
		const body = new ReadableStream({ start: (controller) => controller.close() })
		expect((await refusal(via(redirector('/echo'), 307), { policy: 'upstream', method: 'POST', body })).reason).toBe('redirect_body')
	})

	test('redirect "manual" hands back the redirect and "error" refuses it', async () => {
		const manual = await client(via(`http://127.0.0.1:${canary.port}/`), { policy: 'upstream', redirect: 'manual' })
		expect(manual.status).toBe(302)
		expect((await refusal(via('/echo'), { policy: 'upstream', redirect: 'error' })).reason).toBe('redirect')
		expect(canary.connections).toBe(0)
	})
})

describe('limits', () => {
	const at = (path: string) => `${upstreamOrigin}${path}`
	beforeEach(() => {
		settings.enabled = true
	})

	test('no response head within the first-byte limit is a first_byte timeout', async () => {
		const error = await failure(client(at('/slow'), { policy: 'upstream', timeouts: { firstByte: 200 } }))
		expect(error).toBeInstanceOf(OutboundTimeoutError)
		// The limit asked for ended it, not the policy's own (minutes) nor the answer 3 s later.
		expect(error).toMatchObject({ phase: 'first_byte', milliseconds: 200 })
	})

	test('a stream that goes quiet errors with an idle timeout after the chunks it did send', async () => {
		const response = await client(at('/stall'), { policy: 'upstream', timeouts: { idle: 200 } })
		const reader = response.body!.getReader()
		expect(new TextDecoder().decode((await reader.read()).value)).toBe('first chunk')
		const error = await failure(reader.read())
		expect(error).toBeInstanceOf(OutboundTimeoutError)
		expect(error).toMatchObject({ phase: 'idle', milliseconds: 200 })
	})

	test('a body past the size limit errors the stream', async () => {
		const response = await client(at('/huge'), { policy: 'upstream', maxBytes: MEBIBYTE })
		const error = await failure(response.arrayBuffer())
		expect(error).toBeInstanceOf(OutboundTooLargeError)
		expect((error as OutboundTooLargeError).limit).toBe(MEBIBYTE)
	})

	test('a declared length past the size limit is refused before the body is read', async () => {
		expect(await failure(client(at('/declared-huge'), { policy: 'upstream', maxBytes: MEBIBYTE }))).toBeInstanceOf(OutboundTooLargeError)
		expect((await (await client(at('/huge'), { policy: 'upstream' })).arrayBuffer()).byteLength).toBe(4 * MEBIBYTE)
	})

	test('the caller\'s abort signal still ends the request with its own reason', async () => {
		const controller = new AbortController()
		setTimeout(() => controller.abort(), 100)
		const error = await failure(client(at('/slow'), { policy: 'upstream', signal: controller.signal }))
		expect((error as Error).name).toBe('AbortError')
		const timedOut = await failure(client(at('/slow'), { policy: 'upstream', signal: AbortSignal.timeout(100) }))
		expect((timedOut as Error).name).toBe('TimeoutError')
	})

	test('the opened shape reads the body through the same idle and size limits', async () => {
		const stalling = await client.open(at('/stall'), { policy: 'upstream', timeouts: { idle: 200 } })
		expect(new TextDecoder().decode((await stalling.body!.read()).value)).toBe('first chunk')
		const idle = await failure(stalling.body!.read())
		expect((idle as OutboundTimeoutError).phase).toBe('idle')
		const huge = await client.open(at('/huge'), { policy: 'upstream', maxBytes: MEBIBYTE })
		expect(await failure(huge.text())).toBeInstanceOf(OutboundTooLargeError)
		const whole = await client.open(at('/huge'), { policy: 'upstream' })
		expect((await whole.text()).length).toBe(4 * MEBIBYTE)
	})

	test('the caller\'s signal is unhooked once an opened body is read, and aborts one still being read', async () => {
		const controller = new AbortController()
		const hooked = new Set<unknown>()
		const signal = controller.signal
		const add = signal.addEventListener.bind(signal)
		const remove = signal.removeEventListener.bind(signal)
		signal.addEventListener = ((type: string, listener: unknown, options?: unknown) => {
			hooked.add(listener)
			add(type, listener as EventListener, options as AddEventListenerOptions)
		}) as typeof signal.addEventListener
		signal.removeEventListener = ((type: string, listener: unknown) => {
			hooked.delete(listener)
			remove(type, listener as EventListener)
		}) as typeof signal.removeEventListener
		const echoed = await client.open(at('/echo'), { policy: 'upstream', method: 'POST', body: 'x', signal })
		expect(hooked.size).toBe(1)
		expect(JSON.parse(await echoed.text()).body).toBe('x')
		expect(hooked.size).toBe(0)

		const stalling = await client.open(at('/stall'), { policy: 'upstream', signal })
		await stalling.body!.read()
		setTimeout(() => controller.abort(), 50)
		expect(((await failure(stalling.body!.read())) as Error).name).toBe('AbortError')
		expect(hooked.size).toBe(0)
	})

	test('a Request object is sent with its method, headers and body', async () => {
		const request = new Request(at('/echo'), { method: 'POST', body: 'hello', headers: { 'x-trace': '1' } })
		const echo = await (await client(request, { policy: 'upstream' })).json() as { method: string; body: string; headers: Record<string, string> }
		expect(echo).toMatchObject({ method: 'POST', body: 'hello', headers: { 'x-trace': '1' } })
	})

	test('a connection refused by the server is a network error without the query string', async () => {
		const error = await failure(client('http://127.0.0.1:1/v1?key=sk-secret', { policy: 'upstream' }))
		expect(error).toBeInstanceOf(OutboundNetworkError)
		expect((error as Error).message).not.toContain('sk-secret')
	})

	test.skipIf(!stalled)('a server that never completes the handshake is a connect timeout', async () => {
		const error = await failure(client(`http://127.0.0.1:${stalled!.port}/`, { policy: 'upstream', timeouts: { connect: 300, firstByte: 10_000 } }))
		expect(error).toBeInstanceOf(OutboundTimeoutError)
		expect(error).toMatchObject({ phase: 'connect', milliseconds: 300 })
	})

	test('an https server that accepts the connection and never answers the TLS handshake is a connect timeout', async () => {
		names.set('silent.test', ['127.0.0.1'])
		for (const url of [`https://127.0.0.1:${silent.port}/`, `https://silent.test:${silent.port}/?key=sk-secret`]) {
			const error = await failure(client(url, { policy: 'upstream', timeouts: { connect: 300, firstByte: 10_000 } }))
			expect(error).toBeInstanceOf(OutboundTimeoutError)
			// The connect limit covers the TLS handshake: the first-byte limit never comes into it.
			expect(error).toMatchObject({ phase: 'connect', milliseconds: 300 })
			expect((error as Error).message).not.toContain('sk-secret')
		}
		expect(silent.connections).toBeGreaterThan(0)
	})
})
