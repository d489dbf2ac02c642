import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { auditLedger } from '@/billing/audit'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

// gpt-4o-mini: model ratio 0.075, completion ratio 4; the fake reports 1000 prompt and 200 completion
// tokens, so every call costs (1000 + 200 × 4) × 0.075 = 135 quota in the default group.
const CALL_COST = 135

for (const target of databaseTargets()) {
	describe(`the OpenAI-format relay through the official SDK on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let client: OpenAI
		let userId: number
		let tokenId: number

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			upstream = harness.startUpstream({ promptTokens: 1000, completionTokens: 200, embeddingDimensions: 4 })
			await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini,gpt-3.5-turbo-instruct,text-embedding-3-small,gpt-4o', model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}' })
			const user = await harness.ferry.createUser('caller')
			userId = user.userId
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: userId, quota: 1_000_000 } })
			const token = await harness.createToken({ name: 'sdk', unlimited_quota: false, remain_quota: 500_000 }, user)
			tokenId = token.id
			client = harness.client(token.key)
		})
		afterAll(() => harness.close())

		const balances = () => harness.account(userId, tokenId)

		test('answers a chat completion and charges exactly its price to the user and the token', async () => {
			const before = await balances()
			const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] })
			expect(answer.choices[0]!.message.content).toBe('Hello from fake-openai')
			expect(answer.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200 })
			expect(await balances()).toEqual({ quota: before.quota - CALL_COST, used: before.used + CALL_COST, remain: before.remain - CALL_COST, tokenUsed: before.tokenUsed + CALL_COST })
			const sent = upstream.requests.at(-1)!
			expect(sent.headers.authorization).toBe('Bearer sk-upstream-key')
			expect(sent.body.model).toBe('gpt-4o-mini')
		})

		test('streams a chat completion, hiding the usage chunk the client did not ask for', async () => {
			const before = await balances()
			const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: true })
			let text = ''
			let chunks = 0
			for await (const chunk of stream) {
				chunks++
				expect(chunk.choices.length).toBeGreaterThan(0)
				text += chunk.choices[0]?.delta?.content ?? ''
			}
			expect(text).toBe('Hello from fake-openai')
			expect(chunks).toBeGreaterThan(1)
			expect(upstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true })
			expect((await balances()).quota).toBe(before.quota - CALL_COST)
		})

		test('passes the usage chunk to a client that asked for it', async () => {
			const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } })
			let usage: OpenAI.CompletionUsage | null | undefined
			for await (const chunk of stream) if (chunk.usage) usage = chunk.usage
			expect(usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200 })
		})

		test('answers legacy completions, streaming and not', async () => {
			const answer = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hello' })
			expect(answer.choices[0]!.text).toContain('Hello')
			const stream = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hello', stream: true })
			let text = ''
			for await (const chunk of stream) text += chunk.choices[0]?.text ?? ''
			expect(text).toContain('Hello')
		})

		test('answers embeddings and bills their prompt tokens', async () => {
			const before = await balances()
			const answer = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'] })
			expect(answer.data).toHaveLength(2)
			expect(answer.data[0]!.embedding).toHaveLength(4)
			const spent = before.quota - (await balances()).quota
			expect(spent).toBeGreaterThan(0)
		})

		test('lists the models the token may use and describes one', async () => {
			const models = []
			for await (const model of client.models.list()) models.push(model.id)
			expect(models).toEqual(['gpt-3.5-turbo-instruct', 'gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small'])
			expect((await client.models.retrieve('gpt-4o-mini')).id).toBe('gpt-4o-mini')
			const missing = await client.models.retrieve('no-such-model').then(() => undefined, (error: unknown) => error)
			expect(missing).toBeInstanceOf(OpenAI.NotFoundError)
		})

		test('sends the mapped model upstream and bills the model the client asked for', async () => {
			await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
			expect(upstream.requests.at(-1)!.body.model).toBe('gpt-4o-2024-08-06')
			const { logs } = harness.ferry.store.tables
			const consumed = await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume)).orderBy(logs.id)
			const last = consumed.at(-1)!
			expect(last.modelName).toBe('gpt-4o')
			// gpt-4o: ratio 1.25, completion ratio 4 → (1000 + 800) × 1.25 = 2250
			expect(last.quota).toBe(2250)
			expect(JSON.parse(last.other)).toMatchObject({ model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, group: 'default', admin_info: { use_channel: [expect.any(Number)] } })
		})

		test('keeps the ledger invariant after all of these calls', async () => {
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		describe('errors reach the SDK as OpenAI errors with the right status', () => {
			const expectError = async (promise: Promise<unknown>, kind: new (...args: never[]) => Error, status: number, code?: string) => {
				const error = await promise.then(() => undefined, (caught: unknown) => caught)
				expect(error).toBeInstanceOf(kind)
				expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(status)
				if (code) expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe(code)
			}
			const chat = (sdk: OpenAI, model = 'gpt-4o-mini') => sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })

			test('a bad key', async () => {
				await expectError(chat(harness.client('sk-not-a-real-key')), OpenAI.AuthenticationError, 401, 'invalid_api_key')
			})

			test('an expired token and an exhausted token', async () => {
				const expired = await harness.createToken({ name: 'expired' })
				const { tokens } = harness.ferry.store.tables
				await harness.ferry.store.db.update(tokens).set({ expiredTime: 1000 }).where(eq(tokens.id, expired.id))
				await expectError(chat(harness.client(expired.key)), OpenAI.AuthenticationError, 401, 'token_expired')
				const exhausted = await harness.createToken({ name: 'exhausted', unlimited_quota: false, remain_quota: 0 })
				await expectError(chat(harness.client(exhausted.key)), OpenAI.AuthenticationError, 401, 'token_exhausted')
			})

			test('a model the token may not use', async () => {
				const limited = await harness.createToken({ name: 'limited', model_limits_enabled: true, model_limits: 'gpt-4o' })
				await expectError(chat(harness.client(limited.key)), OpenAI.PermissionDeniedError, 403, 'model_not_allowed')
			})

			test('an address outside the token\'s allow-list', async () => {
				const fenced = await harness.createToken({ name: 'fenced', allow_ips: '10.9.8.7\n192.168.0.0/16' })
				await expectError(chat(harness.client(fenced.key)), OpenAI.PermissionDeniedError, 403, 'ip_not_allowed')
				const local = await harness.createToken({ name: 'local', allow_ips: '127.0.0.0/8\n::1' })
				expect((await chat(harness.client(local.key))).choices).toHaveLength(1)
			})

			test('a model no channel lists', async () => {
				await expectError(chat(client, 'o3'), OpenAI.NotFoundError, 404, 'model_not_found')
			})

			test('a user without enough quota', async () => {
				const poor = await harness.ferry.createUser('poor')
				const token = await harness.createToken({ name: 'poor' }, poor)
				await expectError(chat(harness.client(token.key)), OpenAI.PermissionDeniedError, 403, 'insufficient_user_quota')
			})

			test('an ordinary user pinning a channel', async () => {
				const [bare] = (await harness.createToken({ name: 'pin' }, await harness.ferry.login('caller', 'password123'))).key.split(' ')
				await expectError(chat(harness.client(`${bare}-1`)), OpenAI.PermissionDeniedError, 403, 'channel_pin_forbidden')
			})

			test('an upstream 429 that retries could not get past', async () => {
				upstream.setMode('status=429', 5)
				await expectError(chat(client), OpenAI.RateLimitError, 429)
				upstream.setMode('none')
			})

			test('a token disabled or a user banned a moment ago is refused at once, despite the token cache', async () => {
				const member = await harness.ferry.createUser('member')
				await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: member.userId, quota: 100_000 } })
				const token = await harness.createToken({ name: 'cached' }, member)
				const sdk = harness.client(token.key)
				expect((await chat(sdk)).choices).toHaveLength(1)
				await harness.ferry.call('PUT', '/api/token/?status_only=true', { as: member, body: { id: token.id, status: 2 } })
				await expectError(chat(sdk), OpenAI.AuthenticationError, 401, 'token_disabled')
				await harness.ferry.call('PUT', '/api/token/?status_only=true', { as: member, body: { id: token.id, status: 1 } })
				expect((await chat(sdk)).choices).toHaveLength(1)
				await harness.ferry.call('POST', '/api/user/manage', { as: harness.root, body: { id: member.userId, action: 'disable' } })
				await expectError(chat(sdk), OpenAI.PermissionDeniedError, 403, 'user_disabled')
			})

			test('a request without the fields the endpoint needs is a 400 naming the field', async () => {
				const post = (path: string, body: unknown) => fetch(`${harness.baseUrl}/v1/${path}`, {
					method: 'POST', headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
				})
				const cases: [string, unknown, string][] = [
					['chat/completions', { model: 'gpt-4o-mini' }, 'messages'],
					['chat/completions', { model: 'gpt-4o-mini', messages: [] }, 'messages'],
					['chat/completions', { messages: [{ role: 'user', content: 'Hi' }] }, 'model'],
					['chat/completions', { model: 'gpt-4o-mini', messages: [{ content: 'Hi' }] }, 'messages.0'],
					['chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: -5 }, 'max_tokens'],
					['completions', { model: 'gpt-3.5-turbo-instruct', prompt: { not: 'text' } }, 'prompt'],
					['embeddings', { model: 'text-embedding-3-small' }, 'input'],
					['chat/completions', [1, 2, 3], 'JSON object'],
				]
				for (const [path, body, field] of cases) {
					const response = await post(path, body)
					expect({ path, status: response.status }).toEqual({ path, status: 400 })
					expect((await response.json()).error.message).toContain(field)
				}
			})

			test('a malformed body and an unsupported path', async () => {
				const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-x', 'content-type': 'application/json' }, body: '{' })
				expect(response.status).toBe(401)
				const unsupported = await fetch(`${harness.baseUrl}/v1/assistants`, { method: 'POST' })
				expect(unsupported.status).toBe(501)
				expect((await unsupported.json()).error.code).toBe('not_implemented')
			})
		})
	})
}
