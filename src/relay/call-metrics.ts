/**
 * The relay's Prometheus series, recorded as calls run and written out only on scrape
 * (`metrics-route.ts`). Each call gets one `CallRecord` at the edge (edge/respond.ts): the client format
 * names its endpoint and model, the call's CallScope adds what it settled (channel, tokens, quota,
 * first token), and the edge finishes it once with the outcome the client saw — for a stream, when
 * the stream ends. Finishing twice does nothing, so every path may finish it.
 *
 * Label values stay bounded: endpoints are Ferry's, channels are ids of admin-made channels, and a
 * model name is kept only when some channel serves it (admin-defined); any other name a client
 * sends is counted as `other`.
 */
import type { Usage } from '@/billing/price'
import { Counter, Gauge, Histogram, OVERFLOW_LABEL } from '@/lib/prometheus'

/** What the client got: by status (2xx, 429, 499, other 4xx, 5xx), or a stream that broke after it began. */
export type CallOutcome = 'success' | 'rate_limited' | 'client_closed' | 'client_error' | 'error' | 'stream_failed'

export function outcomeOfStatus(status: number): CallOutcome {
	if (status < 400) return 'success'
	if (status === 429) return 'rate_limited'
	if (status === 499) return 'client_closed'
	return status < 500 ? 'client_error' : 'error'
}

/** LLM calls take from tens of milliseconds (embeddings) to minutes (long generations). */
const DURATION_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300]
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60]
const MILLISECONDS_PER_SECOND = 1000

/** The failure of an upstream attempt that had no HTTP status: it could not be reached, or timed out. */
export const UNREACHABLE = 'unreachable'

export class RelayMetrics {
	readonly calls = new Counter({ name: 'ferry_relay_calls_total', help: 'Relay calls by endpoint, model, answering channel and outcome.', labels: ['endpoint', 'model', 'channel', 'outcome'] })
	readonly promptTokens = new Counter({ name: 'ferry_relay_prompt_tokens_total', help: 'Prompt (input) tokens billed.', labels: ['endpoint', 'model', 'channel'] })
	readonly completionTokens = new Counter({ name: 'ferry_relay_completion_tokens_total', help: 'Completion (output) tokens billed.', labels: ['endpoint', 'model', 'channel'] })
	readonly quota = new Counter({ name: 'ferry_relay_quota_charged_total', help: 'Quota charged by settled calls.', labels: ['endpoint', 'model', 'channel'] })
	readonly duration = new Histogram({
		name: 'ferry_relay_call_duration_seconds', help: 'Time of successful calls, from arrival to the end of the answer (of the stream, for streams).',
		labels: ['endpoint', 'model'], buckets: DURATION_BUCKETS,
	})
	readonly firstToken = new Histogram({
		name: 'ferry_relay_first_token_seconds', help: 'Time from arrival to the first generated text of a stream.', labels: ['endpoint', 'model'], buckets: FIRST_TOKEN_BUCKETS,
	})
	readonly upstreamErrors = new Counter({ name: 'ferry_upstream_errors_total', help: `Failed upstream attempts by channel and status (${UNREACHABLE}: no answer).`, labels: ['channel', 'status'] })
	readonly inFlight = new Gauge({ name: 'ferry_relay_calls_in_flight', help: 'Relay calls being served by this node, streams until they end.' })
	readonly cacheLookups = new Counter({ name: 'ferry_response_cache_lookups_total', help: 'Response cache lookups by result: hit (answered from the cache) or miss (sent upstream).', labels: ['result'] })

	/** Whether some channel serves the model: other names are counted as `other`. */
	constructor(private readonly servedModel: (model: string) => boolean) {}

	begin(startedAt: number): CallRecord {
		this.inFlight.add([], 1)
		return new CallRecord(this, startedAt)
	}

	modelLabel(model: string) {
		return model !== '' && this.servedModel(model) ? model : OVERFLOW_LABEL
	}

	/** One call asked the response cache. */
	cacheLookup(result: 'hit' | 'miss') {
		this.cacheLookups.inc([result])
	}

	upstreamError(channelId: number, status: number | typeof UNREACHABLE) {
		this.upstreamErrors.inc([String(channelId), String(status)])
	}

	all() {
		return [this.calls, this.promptTokens, this.completionTokens, this.quota, this.duration, this.firstToken, this.upstreamErrors, this.inFlight, this.cacheLookups]
	}
}

/** One call's series, finished once. */
export class CallRecord {
	private endpoint = ''
	private model = ''
	private channel = ''
	private finished = false

	constructor(private readonly metrics: RelayMetrics, private readonly startedAt: number) {}

	/** The endpoint and the model the client asked for, once its request is read. */
	describe(endpoint: string, model: unknown) {
		this.endpoint = endpoint
		this.model = this.metrics.modelLabel(typeof model === 'string' ? model : '')
	}

	/** What a settled call charged (CallScope.settle). */
	settled(channelId: number, usage: Usage, quota: number, firstTokenMs: number | undefined) {
		const { metrics, endpoint, model } = this
		this.channel = String(channelId)
		const labels = [endpoint, model, this.channel]
		metrics.promptTokens.inc(labels, usage.promptTokens)
		metrics.completionTokens.inc(labels, usage.completionTokens)
		metrics.quota.inc(labels, quota)
		if (firstTokenMs !== undefined) metrics.firstToken.observe([endpoint, model], firstTokenMs / MILLISECONDS_PER_SECOND)
	}

	finish(outcome: CallOutcome) {
		if (this.finished) return
		this.finished = true
		const { metrics, endpoint, model } = this
		metrics.inFlight.add([], -1)
		metrics.calls.inc([endpoint, model, this.channel, outcome])
		if (outcome === 'success') metrics.duration.observe([endpoint, model], (performance.now() - this.startedAt) / MILLISECONDS_PER_SECOND)
	}
}
