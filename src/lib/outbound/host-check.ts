/**
 * The outbound rules for clients that open their own connections (the SMTP mailer): the host is
 * resolved once and every address is checked by the same policy as the HTTP client (docs/operations/security.md#outbound-requests);
 * the caller then connects to one of the returned addresses, never to the name, presenting the
 * name for TLS. A DNS answer that changes after the check (rebinding) is never used.
 */
import { isIPv6 } from 'node:net'
import { OutboundBlockedError } from './errors'
import { formatUrlHost } from './ip-address'
import { lookupWithBun, resolveTarget, type HostLookup } from './resolve'
import { createAddressPolicy, parseTarget, type OutboundPolicy, type PrivateUpstreamSettings, type Target } from './target'

interface CheckedHost {
	/** The name to present for TLS (SNI and the certificate check); undefined for an IP literal. */
	serverName: string | undefined
	/** Every address of the host, checked, as IP text without brackets, in the resolver's order. */
	addresses: string[]
}

/**
 * Throws `OutboundBlockedError` for a host the policy refuses (or that is not a plain host name or
 * address), `OutboundNetworkError` / `OutboundTimeoutError` when it cannot be resolved in time.
 * `scheme` only names the target in messages (`smtp`).
 */
export type HostCheck = (host: string, port: number, scheme: string, policy: OutboundPolicy) => Promise<CheckedHost>

interface HostCheckOptions {
	privateUpstreams: PrivateUpstreamSettings
	lookup?: HostLookup
	/** Milliseconds for the name lookup. */
	timeout: number
}

/** A bare host (`smtp.example.com`, `10.0.0.5`, `::1`, `[::1]`) as a target; anything with a port, path or user is refused. */
function hostTarget(host: string, port: number, scheme: string): Target {
	const trimmed = host.trim()
	const urlHost = isIPv6(trimmed) ? `[${trimmed}]` : trimmed
	const description = `${scheme}://${urlHost}:${port}`
	if (urlHost === '' || /[/?#@\\\s]/.test(urlHost) || /:\d*$/.test(urlHost.replace(/^\[.*\]$/, ''))) throw new OutboundBlockedError('invalid_url', description)
	let url: URL
	try {
		url = new URL(`http://${urlHost}/`)
	} catch {
		throw new OutboundBlockedError('invalid_url', description)
	}
	return { ...parseTarget(url), port, description: `${scheme}://${url.hostname}:${port}` }
}

export function createHostCheck(options: HostCheckOptions): HostCheck {
	const addressPolicy = createAddressPolicy(options.privateUpstreams)
	const lookup = options.lookup ?? lookupWithBun
	return async (host, port, scheme, policy) => {
		const target = hostTarget(host, port, scheme)
		const addresses = await resolveTarget(target, lookup, options.timeout, undefined)
		addressPolicy.check(target, addresses, policy)
		return {
			serverName: target.literal ? undefined : target.hostName,
			addresses: addresses.map((address) => formatUrlHost(address).replace(/^\[|\]$/g, '')),
		}
	}
}
