/** The one outbound HTTP client (design §8): everything Ferry fetches from another server goes through it. */
export {
	bodyOrEmpty, createOutboundClient, openedFromResponse, openerWith, type HostLookup, type OpenedResponse, type OutboundClient, type OutboundClientOptions, type OutboundFetch, type OutboundOpen,
} from './client'
export { type BodyReader, readAllText } from './body-guard'
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
export { createHostCheck, type CheckedHost, type HostCheck } from './host-check'
export { createUserContentFetch, type UserContentFetch, type UserContentInit, type WorkerSettings } from './user-content'
