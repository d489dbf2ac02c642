/** The one outbound HTTP client (docs/operations/security.md#outbound-requests): everything Ferry fetches from another server goes through it. */
export {
	bodyOrEmpty, createOutboundClient, openerWith, type HostLookup, type OpenedResponse, type OutboundFetch,
} from './client'
export { type BodyReader, readAllText } from './body-guard'
export type { OutboundRequestInit } from './limits'
export {
	OutboundBlockedError,
	OutboundError,
	OutboundNetworkError,
	OutboundTimeoutError,
	OutboundTooLargeError,
	type BlockReason,
} from './errors'
export { isValidHostEntry, parseHostList } from './host-list'
export { classifyAddress, parseIp } from './ip-address'
export type { OutboundPolicy } from './target'
export { createHostCheck, type HostCheck } from './host-check'
export { createUserContentFetch } from './user-content'
