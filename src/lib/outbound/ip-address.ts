/**
 * IP addresses as 16 bytes (IPv4 held in its IPv4-mapped IPv6 form, so one range table and one
 * matcher serve both families) and the class of each address for the outbound policy.
 */
import { isIPv4, isIPv6 } from 'node:net'

export type IpBytes = Uint8Array

/**
 * `public` may be reached by every policy; `private` (loopback, RFC 1918, CGNAT, ULA, link-local
 * IPv6) only by admin-set upstreams with consent; `metadata` and `reserved` never.
 */
type AddressClass = 'public' | 'private' | 'metadata' | 'reserved'

export interface IpRange {
	bytes: IpBytes
	prefix: number
}

function mapIpv4(octets: number[]): IpBytes {
	const bytes = new Uint8Array(16)
	bytes[10] = 0xff
	bytes[11] = 0xff
	bytes.set(octets, 12)
	return bytes
}

function parseIpv6(text: string): IpBytes {
	const groupsOf = (part: string): number[] => part === ''
		? []
		: part.split(':').flatMap((group) => {
			if (!group.includes('.')) return [Number.parseInt(group, 16)]
			const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number]
			return [(a << 8) | b, (c << 8) | d]
		})
	const [left = '', right] = text.split('::')
	const head = groupsOf(left)
	const tail = right === undefined ? [] : groupsOf(right)
	const groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
	const bytes = new Uint8Array(16)
	groups.forEach((group, index) => {
		bytes[index * 2] = group >> 8
		bytes[index * 2 + 1] = group & 0xff
	})
	return bytes
}

/** Parses a canonical IPv4 or IPv6 literal (brackets and a zone suffix allowed); anything else is undefined. */
export function parseIp(text: string): IpBytes | undefined {
	const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
	if (isIPv4(bare)) return mapIpv4(bare.split('.').map(Number))
	const withoutZone = bare.split('%')[0]!
	return isIPv6(withoutZone) ? parseIpv6(withoutZone) : undefined
}

function isMappedIpv4(bytes: IpBytes): boolean {
	return inRange(bytes, MAPPED_IPV4)
}

/** The address as a URL host: dotted IPv4 for mapped addresses, bracketed IPv6 otherwise. */
export function formatUrlHost(bytes: IpBytes): string {
	if (isMappedIpv4(bytes)) return Array.from(bytes.subarray(12)).join('.')
	const groups: string[] = []
	for (let index = 0; index < 16; index += 2) groups.push(((bytes[index]! << 8) | bytes[index + 1]!).toString(16))
	return `[${groups.join(':')}]`
}

/** `10.0.0.0/8`, `fd00::/8`, or a single address (a full-length prefix). */
export function parseRange(text: string): IpRange | undefined {
	const [address = '', prefixText, extra] = text.split('/')
	if (extra !== undefined) return undefined
	const bytes = parseIp(address)
	if (!bytes) return undefined
	const ipv4 = isIPv4(address)
	const width = ipv4 ? 32 : 128
	if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined
	const prefix = prefixText === undefined ? width : Number(prefixText)
	if (prefix > width) return undefined
	return { bytes, prefix: ipv4 ? prefix + 96 : prefix }
}

export function inRange(bytes: IpBytes, range: IpRange): boolean {
	const whole = range.prefix >> 3
	for (let index = 0; index < whole; index++) if (bytes[index] !== range.bytes[index]) return false
	const rest = range.prefix & 7
	if (rest === 0) return true
	const mask = (0xff << (8 - rest)) & 0xff
	return ((bytes[whole]! ^ range.bytes[whole]!) & mask) === 0
}

function table(entries: [string, AddressClass][]): [IpRange, AddressClass][] {
	return entries.map(([text, addressClass]) => [parseRange(text)!, addressClass])
}

const MAPPED_IPV4 = parseRange('::ffff:0:0/96')!
const NAT64 = parseRange('64:ff9b::/96')!
const SIX_TO_FOUR = parseRange('2002::/16')!
const GLOBAL_UNICAST = parseRange('2000::/3')!

// First match wins: metadata addresses sit inside wider private or link-local ranges.
const IPV4_CLASSES = table([
	['169.254.0.0/16', 'metadata'],
	['100.100.100.200/32', 'metadata'],
	['0.0.0.0/8', 'reserved'],
	['192.0.0.0/24', 'reserved'],
	['192.0.2.0/24', 'reserved'],
	['192.88.99.0/24', 'reserved'],
	['198.18.0.0/15', 'reserved'],
	['198.51.100.0/24', 'reserved'],
	['203.0.113.0/24', 'reserved'],
	['224.0.0.0/4', 'reserved'],
	['240.0.0.0/4', 'reserved'],
	['127.0.0.0/8', 'private'],
	['10.0.0.0/8', 'private'],
	['172.16.0.0/12', 'private'],
	['192.168.0.0/16', 'private'],
	['100.64.0.0/10', 'private'],
])

const IPV6_CLASSES = table([
	['fd00:ec2::254/128', 'metadata'],
	['::1/128', 'private'],
	['fc00::/7', 'private'],
	['fe80::/10', 'private'],
	['fec0::/10', 'private'],
	['64:ff9b:1::/48', 'private'],
	['::/128', 'reserved'],
	['ff00::/8', 'reserved'],
	['100::/64', 'reserved'],
	['2001::/32', 'reserved'],
	['2001:2::/48', 'reserved'],
	['2001:db8::/32', 'reserved'],
	['3fff::/20', 'reserved'],
])

function classOf(bytes: IpBytes, ranges: [IpRange, AddressClass][]): AddressClass | undefined {
	return ranges.find(([range]) => inRange(bytes, range))?.[1]
}

/**
 * IPv4-mapped, NAT64 (64:ff9b::/96) and 6to4 addresses are judged by the IPv4 address they carry;
 * IPv6 outside 2000::/3 that is not listed (IPv4-compatible ::a.b.c.d, unassigned space) is reserved.
 */
export function classifyAddress(bytes: IpBytes): AddressClass {
	if (inRange(bytes, MAPPED_IPV4)) return classOf(bytes, IPV4_CLASSES) ?? 'public'
	if (inRange(bytes, NAT64)) return classifyAddress(mapIpv4(Array.from(bytes.subarray(12))))
	if (inRange(bytes, SIX_TO_FOUR)) return classifyAddress(mapIpv4(Array.from(bytes.subarray(2, 6))))
	const listed = classOf(bytes, IPV6_CLASSES)
	if (listed) return listed
	return inRange(bytes, GLOBAL_UNICAST) ? 'public' : 'reserved'
}
