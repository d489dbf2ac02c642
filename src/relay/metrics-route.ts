/**
 * `GET /metrics`: Prometheus's text exposition format. The relay's own series are kept
 * in memory as calls run (call-metrics.ts); channel status, pending ledger holds and the
 * process's memory are read when scraped, so a scrape costs two small queries and the call rate
 * pays nothing for them.
 *
 * Who may scrape: with `METRICS_TOKEN` set, a request bearing it (`Authorization: Bearer …`), from
 * anywhere. Without it, only a direct request from this machine: the connecting peer is a loopback
 * address and the request carries no proxy header (`Forwarded`, `X-Forwarded-For`, `X-Real-IP`). The
 * series name channels, models and volumes, which are not for the internet; a reverse proxy on the
 * same host also connects from loopback, and the header check keeps it from passing the internet's
 * requests on as local ones (a proxy adding none of them would: set the token then).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import type { RequestPeer } from '@/lib/client-address'
import { PROMETHEUS_CONTENT_TYPE, renderMetrics, renderSamples } from '@/lib/prometheus'
import type { RelayServices } from './services'

const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip']

const digest = (text: string) => createHash('sha256').update(text).digest()

function isLoopback(address: string) {
	const plain = address.startsWith('::ffff:') ? address.slice(7) : address
	if (isIP(plain) === 4) return plain.startsWith('127.')
	return plain === '::1'
}

/** Undefined when the request may scrape; otherwise the refusal. */
function refusal(token: string, server: RequestPeer, request: Request): Response | undefined {
	if (token) {
		const presented = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim() ?? ''
		if (presented && timingSafeEqual(digest(presented), digest(token))) return undefined
		return new Response('a valid METRICS_TOKEN bearer is required\n', { status: 401, headers: { 'www-authenticate': 'Bearer' } })
	}
	// `app.handle` in-process (tests) has no peer: it is this process itself.
	const peer = server?.requestIP(request)?.address
	const direct = peer === undefined || isLoopback(peer)
	if (direct && !PROXY_HEADERS.some((name) => request.headers.has(name))) return undefined
	return new Response('metrics are served to this machine only; set METRICS_TOKEN to scrape from elsewhere\n', { status: 403 })
}

type ChannelRow = { id: number; name: string; status: number }

async function scrape({ store, startTime }: Dependencies, relay: RelayServices): Promise<string> {
	const [channels, [holds]] = await Promise.all([
		store.read<ChannelRow>('SELECT id, name, status FROM channels ORDER BY id'),
		store.read<{ pending: number }>(`SELECT count(*) AS pending FROM quota_holds WHERE state = 'pending'`),
	])
	const memory = process.memoryUsage()
	const lines: string[] = []
	renderSamples(lines, 'ferry_channel_status', 'Status of each channel: 1 enabled, 2 disabled by an admin, 3 disabled automatically.', 'gauge',
		channels.map((channel) => ({ labels: { channel: String(channel.id), name: channel.name }, value: Number(channel.status) })))
	renderSamples(lines, 'ferry_ledger_holds_pending', 'Ledger holds of calls not yet settled or voided, on every node (read from the database).', 'gauge',
		[{ value: Number(holds?.pending ?? 0) }])
	renderSamples(lines, 'ferry_process_resident_memory_bytes', 'Resident memory of this process.', 'gauge', [{ value: memory.rss }])
	renderSamples(lines, 'ferry_process_heap_used_bytes', 'JavaScript heap in use.', 'gauge', [{ value: memory.heapUsed }])
	renderSamples(lines, 'ferry_process_heap_total_bytes', 'JavaScript heap reserved.', 'gauge', [{ value: memory.heapTotal }])
	renderSamples(lines, 'ferry_response_cache_memory_bytes', 'Bytes of answers the response cache keeps in this process (0 when it keeps them in Redis).', 'gauge', [{ value: relay.responseCache.bytes() }])
	renderSamples(lines, 'ferry_process_start_time_seconds', 'When this process started, in unix seconds.', 'gauge', [{ value: startTime }])
	return renderMetrics(relay.metrics.all(), lines)
}

export function metricsRoutes(dependencies: Dependencies, relay: RelayServices) {
	return new Elysia().get('/metrics', async ({ request, server }) => {
		const refused = refusal(dependencies.config.metricsToken, server, request)
		if (refused) return refused
		return new Response(await scrape(dependencies, relay), { headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' } })
	}, { detail: { hide: true } }) // Prometheus's format, not an API: left out of the OpenAPI document.
}
