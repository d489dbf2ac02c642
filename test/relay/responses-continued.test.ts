/**
 * Continuing a kept Responses API response (`previous_response_id`, issue 26 item 3) is routed and
 * priced like any call, driven by the official openai SDK over real HTTP: the caller's group and
 * the channels that serve the model in it decide, and the channel that keeps the response is only a
 * preference among those. A response made in group vip, continued from a default-group token, goes
 * to a default-group channel at the default group's ratio (or is refused when none serves the
 * model); a keeping channel that no longer serves the model, or is disabled, is passed over.
 * Another user's response id is answered word for word as an unknown one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../helpers/database'
import { failureOf } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { startFakeResponses, type FakeResponses } from '../fixtures/providers/openai/fake-responses'

/** Served in both groups. */
const SHARED_MODEL = 'gpt-5'
/** Served only by the vip channel. */
const VIP_MODEL = 'gpt-5-pro'
/** Served by two default-group channels, one of which is changed by the tests. */
const MOVING_MODEL = 'gpt-5-mini'
const VIP_RATIO = 2
/** response.json's usage at model ratio 1 and completion ratio 1: 1536 input tokens (1024 cached, cache ratio 1), 180 output. */
const BASE_QUOTA = 1536 + 180

for (const target of databaseTargets()) {
	describe(`continuing a kept response on ${target.dialect}`, () => {
		let harness: RelayHarness
		let vipUpstream: FakeResponses
		let defaultUpstream: FakeResponses
		let movingUpstreams: FakeResponses[]
		let movingChannels: number[]
		let vipClient: OpenAI
		let defaultClient: OpenAI

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			vipUpstream = startFakeResponses()
			defaultUpstream = startFakeResponses()
			movingUpstreams = [startFakeResponses(), startFakeResponses()]
			const { options } = harness.ferry.dependencies
			await options.set('ModelRatio', JSON.stringify({ [SHARED_MODEL]: 1, [VIP_MODEL]: 1, [MOVING_MODEL]: 1 }))
			await options.set('CompletionRatio', JSON.stringify({ [SHARED_MODEL]: 1, [VIP_MODEL]: 1, [MOVING_MODEL]: 1 }))
			await options.set('CacheRatio', JSON.stringify({ [SHARED_MODEL]: 1, [VIP_MODEL]: 1, [MOVING_MODEL]: 1 }))
			await options.set('GroupRatio', JSON.stringify({ default: 1, vip: VIP_RATIO }))
			await harness.createChannel({ type: 1, name: 'vip-responses', group: 'vip', base_url: vipUpstream.url, models: `${SHARED_MODEL},${VIP_MODEL}` })
			await harness.createChannel({ type: 1, name: 'default-responses', group: 'default', base_url: defaultUpstream.url, models: SHARED_MODEL })
			movingChannels = []
			for (const [index, upstream] of movingUpstreams.entries()) {
				movingChannels.push(await harness.createChannel({ type: 1, name: `moving-${index}`, group: 'default', base_url: upstream.url, models: MOVING_MODEL }))
			}
			// One user (root), two tokens: one in group vip, one in group default.
			vipClient = harness.client((await harness.createToken({ name: 'vip-token', group: 'vip' })).key)
			defaultClient = harness.client((await harness.createToken({ name: 'default-token', group: 'default' })).key)
		})
		afterAll(async () => {
			await harness.close()
			await Promise.all([vipUpstream, defaultUpstream, ...movingUpstreams].map((upstream) => upstream.stop()))
		})

		const requestsTo = (upstream: FakeResponses) => upstream.requests.length
		const consumeLog = async () => {
			const logs = await harness.ferry.call('GET', '/api/log/?page_size=20', { as: harness.root })
			return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)!
		}
		const setChannel = async (fields: Record<string, unknown>) => {
			const answer = await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: fields })
			if (!answer.body.success) throw new Error(`changing a channel failed: ${answer.body.message}`)
		}
		/** Which of the two moving channels (by position) answered the last call to either. */
		const lastMoving = () => {
			const [first, second] = movingUpstreams.map((upstream) => upstream.requests.at(-1)?.at ?? -1)
			return first! > second! ? 0 : 1
		}

		test('a response made in group vip, continued from a default-group token, goes to a default-group channel and is billed at the default ratio', async () => {
			const created = await vipClient.responses.create({ model: SHARED_MODEL, input: 'Remember the number 7.' })
			expect(vipUpstream.requests.at(-1)?.body).toMatchObject({ input: 'Remember the number 7.' })
			expect(await consumeLog()).toMatchObject({ group: 'vip', quota: BASE_QUOTA * VIP_RATIO })

			const vipCalls = requestsTo(vipUpstream)
			await defaultClient.responses.create({ model: SHARED_MODEL, previous_response_id: created.id, input: 'Which number?' })
			expect(requestsTo(vipUpstream)).toBe(vipCalls)
			expect(defaultUpstream.requests.at(-1)?.body).toMatchObject({ previous_response_id: created.id, input: 'Which number?' })
			const log = await consumeLog()
			expect(log).toMatchObject({ group: 'default', token_name: 'default-token', quota: BASE_QUOTA })
			expect(log.other.group_ratio).toBe(1)
		})

		test('continued from the vip token, the same response stays on the vip channel that keeps it, at the vip ratio', async () => {
			const created = await vipClient.responses.create({ model: SHARED_MODEL, input: 'Remember the number 8.' })
			const defaultCalls = requestsTo(defaultUpstream)
			await vipClient.responses.create({ model: SHARED_MODEL, previous_response_id: created.id, input: 'Which number?' })
			expect(vipUpstream.requests.at(-1)?.body.previous_response_id).toBe(created.id)
			expect(requestsTo(defaultUpstream)).toBe(defaultCalls)
			expect(await consumeLog()).toMatchObject({ group: 'vip', quota: BASE_QUOTA * VIP_RATIO })
		})

		test('a response of a model only group vip is served, continued from a default-group token, is refused before anything is sent or billed', async () => {
			const created = await vipClient.responses.create({ model: VIP_MODEL, input: 'Remember the number 9.' })
			const before = await consumeLog()
			const calls = [vipUpstream, defaultUpstream].map(requestsTo)
			const error = await failureOf(defaultClient.responses.create({ model: VIP_MODEL, previous_response_id: created.id, input: 'Which number?' }))
			// No channel of the default group lists the model: it does not exist for this caller.
			expect(error?.status).toBe(404)
			expect(error?.message).toContain(`no available channels for model ${VIP_MODEL} in group default`)
			expect([vipUpstream, defaultUpstream].map(requestsTo)).toEqual(calls)
			expect((await consumeLog()).id).toBe(before.id)
		})

		test('a keeping channel that no longer serves the model is passed over for one that does', async () => {
			const created = await defaultClient.responses.create({ model: MOVING_MODEL, input: 'Remember the number 10.' })
			const keeper = lastMoving()
			const other = 1 - keeper
			await setChannel({ id: movingChannels[keeper], models: 'some-other-model' })
			try {
				const keeperCalls = requestsTo(movingUpstreams[keeper]!)
				await defaultClient.responses.create({ model: MOVING_MODEL, previous_response_id: created.id, input: 'Which number?' })
				expect(requestsTo(movingUpstreams[keeper]!)).toBe(keeperCalls)
				expect(movingUpstreams[other]!.requests.at(-1)?.body.previous_response_id).toBe(created.id)
			} finally {
				await setChannel({ id: movingChannels[keeper], models: MOVING_MODEL })
			}
		})

		test('a disabled keeping channel is passed over for an enabled one', async () => {
			const created = await defaultClient.responses.create({ model: MOVING_MODEL, input: 'Remember the number 11.' })
			const keeper = lastMoving()
			const other = 1 - keeper
			await setChannel({ id: movingChannels[keeper], status: 2 })
			try {
				const keeperCalls = requestsTo(movingUpstreams[keeper]!)
				await defaultClient.responses.create({ model: MOVING_MODEL, previous_response_id: created.id, input: 'Which number?' })
				expect(requestsTo(movingUpstreams[keeper]!)).toBe(keeperCalls)
				expect(movingUpstreams[other]!.requests.at(-1)?.body.previous_response_id).toBe(created.id)
			} finally {
				await setChannel({ id: movingChannels[keeper], status: 1 })
			}
		})

		test('a keeping channel routing would choose from is preferred over the others of the model, turn after turn', async () => {
			const created = await defaultClient.responses.create({ model: MOVING_MODEL, input: 'Remember the number 12.' })
			const keeper = lastMoving()
			for (let turn = 0; turn < 4; turn++) {
				await defaultClient.responses.create({ model: MOVING_MODEL, previous_response_id: created.id, input: 'Which number?' })
				expect(lastMoving()).toBe(keeper)
			}
		})

		test('another user\'s response id gets the same answer as an id nobody has, and no upstream is asked', async () => {
			const created = await vipClient.responses.create({ model: SHARED_MODEL, input: 'Private.' })
			const other = await harness.ferry.createUser('other-user')
			const otherClient = harness.client((await harness.createToken({ group: 'vip' }, other)).key)
			const unknownId = `${created.id.slice(0, -1)}${created.id.endsWith('9') ? '8' : '9'}`
			const calls = [vipUpstream, defaultUpstream].map(requestsTo)
			const foreign = await failureOf(otherClient.responses.create({ model: SHARED_MODEL, previous_response_id: created.id, input: 'Go on.' }))
			const unknown = await failureOf(otherClient.responses.create({ model: SHARED_MODEL, previous_response_id: unknownId, input: 'Go on.' }))
			expect([vipUpstream, defaultUpstream].map(requestsTo)).toEqual(calls)
			expect(foreign?.status).toBe(400)
			const shape = (error: typeof foreign, id: string) => ({ status: error?.status, code: error?.code, type: error?.type, message: error?.message.replace(id, '<id>') })
			expect(shape(foreign, created.id)).toEqual(shape(unknown, unknownId))
			expect(foreign?.code).toBe('previous_response_not_found')
		})
	})
}
