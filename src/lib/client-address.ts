/**
 * The address a request came from. Behind a reverse proxy every connection comes from the proxy,
 * so when the connecting peer is one of `TRUSTED_PROXIES` the client is read from
 * `X-Forwarded-For`: walking it from the right (the hop nearest Ferry), the first address that is
 * not itself a trusted proxy. A peer that is not trusted is the client, whatever headers it sends:
 * so nobody can dodge a token's IP allow-list or a rate limit by writing the header themselves.
 */
import { isIP } from 'node:net'
import { parseAddressList } from './ip-allow-list'

export type RequestPeer = { requestIP(request: Request): { address: string } | null } | null

export type ClientAddress = (server: RequestPeer, request: Request) => string

/** Whether an entry is an IP address or CIDR range, as `TRUSTED_PROXIES` takes them. */
export function isAddressOrRange(entry: string): boolean {
	const [address, prefix, extra] = entry.split('/')
	if (extra !== undefined || !address) return false
	const family = isIP(address)
	if (family === 0) return false
	if (prefix === undefined) return true
	return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)
}

/** IPv4 clients of a dual-stack listener show up as `::ffff:a.b.c.d`; compare them as IPv4. */
const plain = (address: string) => address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address

export function createClientAddress(trustedProxies: readonly string[]): ClientAddress {
	const peerOf = (server: RequestPeer, request: Request) => {
		const address = server?.requestIP(request)?.address
		return address ? plain(address) : 'local'
	}
	if (trustedProxies.length === 0) return peerOf
	const trusted = parseAddressList(trustedProxies.join('\n'))
	return (server, request) => {
		const peer = peerOf(server, request)
		if (!trusted.allows(peer)) return peer
		const forwarded = request.headers.get('x-forwarded-for')
		if (!forwarded) return peer
		const hops = forwarded.split(',')
		let client = peer
		for (let index = hops.length - 1; index >= 0; index--) {
			const hop = plain(hops[index]!.trim())
			if (isIP(hop) === 0) break
			client = hop
			if (!trusted.allows(hop)) break
		}
		return client
	}
}

/**
 * The unit that per-address limits count: an IPv4 address as it is, an IPv6 address by its /64
 * network, since one subscriber is usually handed a whole /64 and could otherwise take a fresh
 * address for every attempt. Anything that is not an address ('local') is returned unchanged.
 */
export function addressGroup(address: string): string {
	if (isIP(address) !== 6) return address
	const [head = '', tail] = address.split('%')[0]!.split('::')
	const hextets = (text: string) => (text ? text.split(':') : [])
	const width = (parts: string[]) => parts.reduce((sum, part) => sum + (part.includes('.') ? 2 : 1), 0)
	const left = hextets(head)
	const right = tail === undefined ? [] : hextets(tail)
	// An embedded IPv4 part can only be last, so the first four hextets never contain one.
	const full = [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right]
	return `${full.slice(0, 4).map((part) => Number.parseInt(part, 16).toString(16)).join(':')}::/64`
}
