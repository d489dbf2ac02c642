/**
 * The private-upstream allowlist (option `PrivateUpstreamHosts`): entries separated by commas,
 * whitespace or new lines. An entry is a host name (`ollama.lan`), a wildcard (`*.lan`, which
 * matches names below `lan` but not `lan` itself), an IP address, or a CIDR range. Names match
 * the URL's host; addresses and ranges match every address the host resolved to. Ports are not
 * part of an entry.
 */
import { inRange, parseRange, type IpBytes, type IpRange } from './ip-address'

export function parseHostList(text: string): string[] {
	return text.split(/[\s,]+/).map((entry) => entry.trim()).filter((entry) => entry !== '')
}

/** The form a name is compared in: lower case, IDN as punycode, no trailing dot. */
function normaliseHostName(name: string): string | undefined {
	let url: URL
	try {
		url = new URL(`http://${name}/`)
	} catch {
		return undefined
	}
	const plain = url.port === '' && url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === ''
	return plain && url.hostname !== '' ? url.hostname.replace(/\.$/, '') : undefined
}

type Matcher = { kind: 'name'; name: string } | { kind: 'suffix'; suffix: string } | { kind: 'range'; range: IpRange }

function compileEntry(entry: string): Matcher | undefined {
	const range = parseRange(entry)
	if (range) return { kind: 'range', range }
	if (entry.includes('/')) return undefined
	if (entry.startsWith('*.')) {
		const suffix = normaliseHostName(entry.slice(2))
		return suffix ? { kind: 'suffix', suffix: `.${suffix}` } : undefined
	}
	const name = normaliseHostName(entry)
	if (!name) return undefined
	// `http://2130706433/` normalises to an address: such an entry is an address, not a name.
	const normalisedRange = parseRange(name)
	return normalisedRange ? { kind: 'range', range: normalisedRange } : { kind: 'name', name }
}

/** Whether an entry means something; an option editor can refuse the others. */
export function isValidHostEntry(entry: string): boolean {
	return compileEntry(entry) !== undefined
}

export interface HostList {
	/** Whether the host (a normalised name) or every one of its addresses is covered by an entry. */
	allows(hostName: string, addresses: IpBytes[]): boolean
}

export function compileHostList(entries: string[]): HostList {
	const matchers = entries.map(compileEntry).filter((matcher) => matcher !== undefined)
	const matchesName = (hostName: string) => matchers.some((matcher) =>
		(matcher.kind === 'name' && matcher.name === hostName) || (matcher.kind === 'suffix' && hostName.endsWith(matcher.suffix)))
	const matchesAddress = (address: IpBytes) => matchers.some((matcher) => matcher.kind === 'range' && inRange(address, matcher.range))
	return {
		allows: (hostName, addresses) => matchesName(hostName) || (addresses.length > 0 && addresses.every(matchesAddress)),
	}
}
