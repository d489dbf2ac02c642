/**
 * What would keep a channel from serving, told where it is set up: a base URL on a private network
 * the private-upstream settings refuse (every call and tool would fail with "host on a private
 * network"), and models without a price (the relay refuses them, the pricing page and the
 * playground leave them out). The editor asks before it saves; the playground asks for its admins.
 */
import { eq } from 'drizzle-orm'
import { BASE_URL_REACH, type BaseUrlReach, splitList } from '@shared/channel-constants'
import type { ChannelCheck, ChannelCheckInput, UnpricedModels } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import type { Dependencies } from '@/dependencies'
import { isCallable } from '@/billing/price'
import { createHostCheck, type HostCheck, OutboundBlockedError, parseHostList } from '@/lib/outbound'
import { baseUrlOf } from './tools/upstream'

/** The name lookup's limit: the editor waits for it before saving. */
const LOOKUP_TIMEOUT_MS = 3_000

/** Private networks are refused here whatever the settings: the first check tells "private" apart. */
const privateRefused: HostCheck = createHostCheck({ privateUpstreams: { privateUpstreamsEnabled: () => false, privateUpstreamHosts: () => [] }, timeout: LOOKUP_TIMEOUT_MS })

function hostOf(url: string): { host: string; port: number; scheme: string } | undefined {
	try {
		const parsed = new URL(url)
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined
		const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80
		return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port, scheme: parsed.protocol.slice(0, -1) }
	} catch {
		return undefined
	}
}

async function reachOf(dependencies: Dependencies, url: string): Promise<{ host: string; reach: BaseUrlReach }> {
	const target = hostOf(url)
	if (!target) return { host: '', reach: BASE_URL_REACH.refused }
	const { options } = dependencies
	try {
		await privateRefused(target.host, target.port, target.scheme, 'upstream')
		return { host: target.host, reach: BASE_URL_REACH.public }
	} catch (error) {
		if (!(error instanceof OutboundBlockedError)) return { host: target.host, reach: BASE_URL_REACH.unknown }
		if (error.reason !== 'private_address') return { host: target.host, reach: BASE_URL_REACH.refused }
	}
	// A private network: reachable only as the settings say now.
	const allowing = createHostCheck({
		privateUpstreams: { privateUpstreamsEnabled: () => options.get('PrivateUpstreamsEnabled'), privateUpstreamHosts: () => parseHostList(options.get('PrivateUpstreamHosts')) },
		timeout: LOOKUP_TIMEOUT_MS,
	})
	try {
		await allowing(target.host, target.port, target.scheme, 'upstream')
		return { host: target.host, reach: BASE_URL_REACH.privateAllowed }
	} catch {
		return { host: target.host, reach: BASE_URL_REACH.privateBlocked }
	}
}

const unpriced = (dependencies: Dependencies, models: readonly string[]) => splitList(models).filter((model) => !isCallable(dependencies.options, model))

export async function checkChannelSetup(dependencies: Dependencies, input: ChannelCheckInput): Promise<ChannelCheck> {
	const { options } = dependencies
	const answer: ChannelCheck = { unpriced_models: unpriced(dependencies, input.models), self_use_mode: options.get('SelfUseModeEnabled') }
	if (input.base_url !== undefined) {
		// As the channel stores it: without trailing slashes.
		const url = baseUrlOf(input.type, input.base_url.trim().replace(/\/+$/, ''))
		const { host, reach } = url ? await reachOf(dependencies, url) : { host: '', reach: BASE_URL_REACH.refused }
		answer.base_url = { url, host, reach, private_upstreams_enabled: options.get('PrivateUpstreamsEnabled') }
	}
	return answer
}

/** The models enabled channels offer that the relay would refuse for want of a price. */
export async function unpricedModelsOfChannels(dependencies: Dependencies): Promise<UnpricedModels> {
	const { store, options } = dependencies
	const { channels } = store.tables
	const enabled = await store.db.selectDistinct({ models: channels.models }).from(channels).where(eq(channels.status, CHANNEL_STATUS.enabled))
	return { models: unpriced(dependencies, enabled.flatMap((channel) => splitList(channel.models))).sort(), self_use_mode: options.get('SelfUseModeEnabled') }
}
