/**
 * Fetching a URL an ordinary user supplied (an image URL in a prompt that an upstream cannot take
 * as a URL). With a proxy worker configured (`WorkerUrl`, `WorkerValidKey`), the fetch happens at
 * the worker, as new-api does it: a POST of `{"url", "key", "method"}` as JSON to the worker URL
 * (with a trailing `/`), whose answer is the fetched resource itself. The worker is an address the
 * super admin set, reached under the `upstream` policy (a worker on a private network needs the
 * private-upstream consent). Without a worker, the URL is fetched directly under the strictest
 * `user-content` policy: public addresses only, every redirect checked.
 *
 * Through a worker, the URL must be https (new-api's rule, whose switch for http Ferry does not
 * have) and a host written as an IP address must be public; names are not resolved here, since
 * the worker resolves them on its own network.
 */
import { OutboundBlockedError } from './errors'
import type { OutboundFetch } from './client'
import { classifyAddress } from './ip-address'
import type { OutboundTimeouts } from './limits'
import { parseTarget } from './target'

/** Read on every fetch, so option changes apply at once. */
interface WorkerSettings {
	/** Empty when no worker is configured. */
	workerUrl(): string
	workerKey(): string
}

interface UserContentInit {
	/** Most bytes of the answer, after decompression. */
	maxBytes: number
	timeouts?: OutboundTimeouts
	signal?: AbortSignal
}

/**
 * Answers the fetched resource as a Response (its status and headers as the worker or the server
 * sent them). Throws `OutboundError`s: `OutboundBlockedError` for a URL that may not be fetched.
 */
type UserContentFetch = (url: string, init: UserContentInit) => Promise<Response>

/** The checks Ferry can make of a URL it hands to the worker without resolving it. */
function checkForWorker(url: string) {
	const target = parseTarget(url)
	if (target.url.protocol !== 'https:') throw new OutboundBlockedError('scheme', `${target.url.protocol}//`)
	if (target.literal) {
		const addressClass = classifyAddress(target.literal)
		if (addressClass === 'metadata') throw new OutboundBlockedError('metadata_address', target.description)
		if (addressClass === 'reserved') throw new OutboundBlockedError('reserved_address', target.description)
		if (addressClass === 'private') throw new OutboundBlockedError('private_address', target.description)
	}
}

export function createUserContentFetch(fetch: OutboundFetch, worker: WorkerSettings): UserContentFetch {
	return (url, { maxBytes, timeouts, signal }) => {
		const workerUrl = worker.workerUrl().trim()
		if (!workerUrl) return fetch(url, { policy: 'user-content', maxBytes, timeouts, signal })
		checkForWorker(url)
		return fetch(workerUrl.endsWith('/') ? workerUrl : `${workerUrl}/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ url, key: worker.workerKey(), method: 'GET' }),
			policy: 'upstream',
			// A redirect from the worker is a failure, never a hop: it would reach past the worker's own checks.
			redirect: 'manual',
			maxBytes,
			timeouts,
			signal,
		})
	}
}
