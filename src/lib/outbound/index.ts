/** The one outbound HTTP client (design §8): everything Ferry fetches from another server goes through it. */
export { createOutboundClient, type HostLookup, type OutboundClientOptions, type OutboundFetch } from './client'
export type { OutboundRequestInit, OutboundTimeouts } from './limits'
export {
	OutboundBlockedError,
	OutboundError,
	OutboundNetworkError,
	OutboundTimeoutError,
	OutboundTooLargeError,
	type BlockReason,
	type TimeoutPhase,
} from './errors'
export { isValidHostEntry, parseHostList } from './host-list'
export { classifyAddress, parseIp, type AddressClass } from './ip-address'
export type { OutboundPolicy, PrivateUpstreamSettings } from './target'
