/**
 * A client's `notifyHook` is an address the upstream will call: with MjNotifyEnabled it is kept,
 * after the same outbound check as every URL an ordinary user gives Ferry (docs/operations/security.md#outbound-requests: public
 * addresses only, resolved once, metadata ranges never); without it the field is dropped.
 */
import { createHostCheck, OutboundError } from '@/lib/outbound'
import { taskErrors } from './task-errors'

const LOOKUP_TIMEOUT_MS = 5_000
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 }

/** User URLs never reach private networks, whatever the private-upstream consent says. */
const hostCheck = createHostCheck({ privateUpstreams: { privateUpstreamsEnabled: () => false, privateUpstreamHosts: () => [] }, timeout: LOOKUP_TIMEOUT_MS })

/** Throws the client's 400 unless `hook` is an http(s) URL to a public address. */
export async function checkNotifyHook(hook: string): Promise<void> {
	let url: URL
	try {
		url = new URL(hook)
	} catch {
		throw taskErrors.notifyHook('it is not a URL')
	}
	const port = DEFAULT_PORTS[url.protocol]
	if (port === undefined) throw taskErrors.notifyHook('only http and https URLs are allowed')
	if (url.username || url.password) throw taskErrors.notifyHook('it may not carry credentials')
	try {
		await hostCheck(url.hostname.replace(/^\[|\]$/g, ''), url.port ? Number(url.port) : port, url.protocol.slice(0, -1), 'user-content')
	} catch (error) {
		throw taskErrors.notifyHook(error instanceof OutboundError ? error.message : 'its host cannot be checked')
	}
}
