/**
 * Which URLs and addresses a request may reach. The URL is parsed by the WHATWG parser first, so
 * `2130706433`, `0x7f.1`, `017700000001` and `127.1` all arrive here as `127.0.0.1`, and
 * `[::ffff:127.0.0.1]` as `[::ffff:7f00:1]`; the address is then classified, never the text.
 */
import { describeTarget, OutboundBlockedError } from './errors'
import { compileHostList, type HostList } from './host-list'
import { classifyAddress, parseIp, type IpBytes } from './ip-address'

/**
 * `user-content`: URLs from ordinary users (image URLs in prompts, webhooks). `service`: payment,
 * sign-in and other fixed services. `upstream`: channel base URLs set by admins, the only policy
 * that can reach private networks, and only with the super admin's consent.
 */
export type OutboundPolicy = 'upstream' | 'user-content' | 'service'

/** Read on every request, so option changes apply at once. */
export interface PrivateUpstreamSettings {
	privateUpstreamsEnabled(): boolean
	/** Entries as in host-list.ts; an empty list lets upstreams reach every private address. */
	privateUpstreamHosts(): string[]
}

export interface Target {
	url: URL
	/** The host as compared, presented for SNI and resolved: lower case, no brackets, no trailing dot. */
	hostName: string
	/** Set when the URL's host is an IP literal (then nothing is resolved). */
	literal: IpBytes | undefined
	port: number
	/** Scheme, host and port, for messages. */
	description: string
}

export function parseTarget(input: string | URL): Target {
	let url: URL
	try {
		url = new URL(input)
	} catch {
		throw new OutboundBlockedError('invalid_url', 'an invalid URL')
	}
	const description = describeTarget(url)
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundBlockedError('scheme', `${url.protocol}//`)
	if (url.username !== '' || url.password !== '') throw new OutboundBlockedError('credentials', description)
	if (url.hostname === '') throw new OutboundBlockedError('invalid_url', description)
	const literal = parseIp(url.hostname)
	const hostName = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '')
	const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port)
	return { url, hostName, literal, port, description }
}

interface AddressPolicy {
	/** Throws `OutboundBlockedError` unless every address may be reached under the policy. */
	check(target: Target, addresses: IpBytes[], policy: OutboundPolicy): void
}

export function createAddressPolicy(settings: PrivateUpstreamSettings): AddressPolicy {
	let cached: { entries: string[]; key: string; list: HostList } | undefined
	const hostList = (entries: string[]) => {
		if (cached?.entries === entries) return cached.list
		const key = entries.join('\n')
		if (cached?.key !== key) cached = { entries, key, list: compileHostList(entries) }
		else cached.entries = entries
		return cached.list
	}
	return {
		check(target, addresses, policy) {
			const classes = addresses.map(classifyAddress)
			if (classes.includes('metadata')) throw new OutboundBlockedError('metadata_address', target.description)
			if (classes.includes('reserved')) throw new OutboundBlockedError('reserved_address', target.description)
			const privateAddresses = addresses.filter((_, index) => classes[index] === 'private')
			if (privateAddresses.length === 0) return
			if (policy !== 'upstream' || !settings.privateUpstreamsEnabled()) throw new OutboundBlockedError('private_address', target.description)
			const entries = settings.privateUpstreamHosts()
			if (entries.length > 0 && !hostList(entries).allows(target.hostName, privateAddresses)) {
				throw new OutboundBlockedError('private_address', target.description)
			}
		},
	}
}
