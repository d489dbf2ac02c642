/** Name resolution for the outbound clients: once per hop, bounded by the connect limit. */
import { OutboundError, OutboundNetworkError, OutboundTimeoutError } from './errors'
import { parseIp, type IpBytes } from './ip-address'
import type { Target } from './target'

/** Every address the name resolves to. */
export type HostLookup = (hostName: string) => Promise<string[]>

export const lookupWithBun: HostLookup = async (hostName) => (await Bun.dns.lookup(hostName, { family: 0 })).map((entry) => entry.address)

/** Settles with the promise, or rejects at the deadline or when the caller aborts. */
async function within<Value>(promise: Promise<Value>, milliseconds: number, onTimeout: () => unknown, caller: AbortSignal | undefined): Promise<Value> {
	let timer: ReturnType<typeof setTimeout> | undefined
	let onAbort: (() => void) | undefined
	const stop = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(onTimeout()), milliseconds)
		onAbort = () => reject(caller!.reason)
		caller?.addEventListener('abort', onAbort, { once: true })
	})
	try {
		return await Promise.race([promise, stop])
	} finally {
		clearTimeout(timer)
		if (onAbort) caller?.removeEventListener('abort', onAbort)
	}
}

/** The target's addresses: its IP literal, or every answer of the lookup (none unparsable). */
export async function resolveTarget(target: Target, lookup: HostLookup, milliseconds: number, caller: AbortSignal | undefined): Promise<IpBytes[]> {
	if (target.literal) return [target.literal]
	let answers: string[]
	try {
		answers = await within(lookup(target.hostName), milliseconds, () => new OutboundTimeoutError('connect', target.description, milliseconds), caller)
	} catch (error) {
		if (error instanceof OutboundError || caller?.aborted) throw error
		throw new OutboundNetworkError(target.description, 'ENOTFOUND')
	}
	const addresses = answers.map((answer) => parseIp(answer))
	if (addresses.length === 0 || addresses.some((address) => address === undefined)) {
		throw new OutboundNetworkError(target.description, 'ENOTFOUND')
	}
	return addresses as IpBytes[]
}
