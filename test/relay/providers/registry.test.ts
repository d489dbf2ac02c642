/**
 * Each channel type is declared twice on purpose: what it is and serves in its folder's
 * `capabilities.ts` (routing, the console and the channel tools read that without loading the
 * adaptor), and what it does in its adaptor (loaded only for the types in use). These tests keep
 * the two from drifting apart, and check that an adaptor loads once.
 */
import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { adaptorFor, channelTypeDescriptions, implementedCapabilities, loadAdaptor, loadAdaptors, serviceFor } from '@/relay/providers/registry'
import { identityOf } from '@/relay/providers/types'

describe('the provider registry', () => {
	test('every channel type declares exactly the capabilities its adaptor implements', async () => {
		for (const description of channelTypeDescriptions()) {
			const adaptor = (await loadAdaptor(description.type))!
			expect({ type: description.type, serves: implementedCapabilities(adaptor) }).toEqual({ type: description.type, serves: description.serves })
		}
	})

	test('every adaptor carries its description\'s type, name, base URL, key format and default models', async () => {
		for (const description of channelTypeDescriptions()) {
			const { type, name, defaultBaseUrl, keyFormat, defaultModels } = (await loadAdaptor(description.type))!
			expect({ type, name, defaultBaseUrl, keyFormat, defaultModels }).toEqual({ keyFormat: undefined, ...identityOf(description) })
		}
	})

	test('each channel type is listed once', () => {
		const types = channelTypeDescriptions().map((description) => description.type)
		expect(new Set(types).size).toBe(types.length)
		expect([...types].sort((left, right) => left - right)).toEqual(Object.values(CHANNEL_TYPE).sort((left, right) => left - right))
	})

	test('an adaptor loads once, and then serves its calls without waiting', async () => {
		const [first, second] = await Promise.all([loadAdaptor(CHANNEL_TYPE.anthropic), loadAdaptor(CHANNEL_TYPE.anthropic)])
		expect(first).toBeDefined()
		expect(second).toBe(first!)
		expect(adaptorFor(CHANNEL_TYPE.anthropic)).toBe(first!)
		expect(serviceFor(CHANNEL_TYPE.anthropic, { endpoint: 'chat', stream: true, native: 'claude' })?.via).toBe('native')
	})

	test('a type Ferry does not know loads no adaptor', async () => {
		expect(await loadAdaptor(9_999)).toBeUndefined()
		await loadAdaptors([9_999])
		expect(adaptorFor(9_999)).toBeUndefined()
	})
})
