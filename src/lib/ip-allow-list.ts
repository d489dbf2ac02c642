/** Token IP allow-lists: one IPv4/IPv6 address or CIDR range per line (docs/specification/tokens-and-money.md#api-tokens). */
import { BlockList, isIP } from 'node:net'

export interface AddressList {
	/** True when the list is empty (no restriction) or contains the address. */
	allows(address: string): boolean
}

const unrestricted: AddressList = { allows: () => true }

export function parseAddressList(text: string): AddressList {
	const lines = text.split('\n').map((line) => line.trim()).filter(Boolean)
	if (lines.length === 0) return unrestricted
	const list = new BlockList()
	for (const line of lines) {
		const [address, prefix] = line.split('/') as [string, string | undefined]
		const family = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : undefined
		if (!family) continue
		if (prefix === undefined) list.addAddress(address, family)
		else if (/^\d{1,3}$/.test(prefix)) list.addSubnet(address, Number(prefix), family)
	}
	return {
		allows(address) {
			const family = isIP(address)
			return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4')
		},
	}
}
