/** The channel editor in Chromium: creating (single and batch), presets, model helpers, checks before saving, editing. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import type { ChannelView } from '@shared/channel'
import { ROLE } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

describe.skipIf(!browserExecutable)('the channel editor in a browser', () => {
	let harness: ConsoleHarness

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)
	afterAll(() => harness?.close())

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })
	const toast = (page: Page, kind: 'success' | 'error' | 'info', text: string) => page.locator(`[data-kind="${kind}"]`).filter({ hasText: text }).first()
	const chips = (page: Page, list: string) => page.getByRole('list', { name: list, exact: true }).getByRole('listitem')

	async function findChannels(keyword: string): Promise<ChannelView[]> {
		const answer = await harness.ferry.call('GET', `/api/channel/search?keyword=${encodeURIComponent(keyword)}&id_sort=true`, { as: harness.root })
		return answer.body.data.items
	}

	async function storedKey(id: number) {
		const { store, dependencies } = harness.ferry
		const [row] = await store.db.select().from(store.tables.channels).where(eq(store.tables.channels.id, id))
		return dependencies.secrets.decrypt(row!.key)
	}

	async function chooseType(page: Page, label: string, name: string) {
		await page.getByLabel(label, { exact: true }).click()
		await page.getByRole('option', { name, exact: true }).click()
	}

	test('creating checks name and key, models and JSON before saving, presets Suno models and saves the channel', async () => {
		const opened = await harness.open('/channel/add', { as: asRoot() })
		const { page, paths } = opened
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'error', '请填写渠道名称和渠道密钥').waitFor()
		await page.getByLabel('名称', { exact: true }).fill('e2e-suno')
		await page.getByLabel('密钥', { exact: true }).fill('sk-suno-key')
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'error', '请至少选择一个模型').waitFor()

		await chooseType(page, '类型', 'Suno')
		await page.getByLabel('Base Path', { exact: true }).fill('https://suno.example.com/')
		expect(await chips(page, '模型').allTextContents()).toEqual(['suno_music', 'suno_lyrics'])
		await page.getByLabel('自定义模型名称', { exact: true }).fill('suno_music, suno_extend')
		await page.getByRole('button', { name: '填入', exact: true }).click()
		await toast(page, 'info', '部分模型已存在').waitFor()
		expect(await chips(page, '模型').allTextContents()).toEqual(['suno_music', 'suno_lyrics', 'suno_extend'])

		await page.getByRole('button', { name: '选择分组' }).click()
		await page.getByRole('option', { name: 'vip', exact: true }).click()
		await page.keyboard.press('Escape')
		expect(await chips(page, '分组').allTextContents()).toEqual(['default', 'vip'])

		await page.getByLabel('模型重定向', { exact: true }).fill('{not json')
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'error', '模型重定向必须是合法的 JSON 格式').waitFor()
		await page.getByRole('button', { name: '填入模板：模型重定向' }).click()
		await page.getByLabel('优先级', { exact: true }).fill('5')
		await page.getByLabel('最大输入 token 数', { exact: true }).fill('-3')
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'error', '最大输入 token 数必须是非负整数，0 或留空表示不限').waitFor()
		await page.getByLabel('最大输入 token 数', { exact: true }).fill('8000')
		expect(paths.filter((path) => path === '/api/channel/')).toEqual([])
		expectNoErrors(opened)

		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'success', '已创建 1 个渠道').waitFor()
		await page.waitForURL(`${harness.origin}/channel`)
		const [saved] = await findChannels('e2e-suno')
		expect(saved).toMatchObject({
			type: 36, name: 'e2e-suno', base_url: 'https://suno.example.com', models: 'suno_music,suno_lyrics,suno_extend',
			group: 'default,vip', priority: 5, max_input_tokens: 8000, auto_ban: 1, model_mapping: JSON.stringify({ 'gpt-3.5-turbo': 'gpt-3.5-turbo-0125' }, null, 2),
		})
		expect(await storedKey(saved!.id)).toBe('sk-suno-key')
		await opened.close()
	}, 30_000)

	test('batch creation makes one channel per key line; saving asks for a group, and fetching models first asks for a key', async () => {
		const opened = await harness.open('/channel/add', { as: asRoot() })
		const { page, paths } = opened
		await page.getByRole('button', { name: '获取模型列表' }).click()
		await toast(page, 'error', '请填写密钥').waitFor()
		expect(paths).not.toContain('/api/channel/fetch_models')

		await page.getByLabel('名称', { exact: true }).fill('e2e-batch')
		await page.getByLabel('批量创建', { exact: true }).click()
		await page.getByLabel('密钥', { exact: true }).fill('sk-first\nsk-second\n\nsk-third')
		// The server asks the upstream with the first key and answers its model names.
		const upstream = harness.startUpstream({ apiKey: 'sk-first', models: ['gpt-4o-mini'] })
		await page.getByLabel('代理地址', { exact: true }).fill(`${upstream.url}/`)
		await page.getByRole('button', { name: '获取模型列表' }).click()
		await toast(page, 'success', '已获取 1 个模型').waitFor()
		expect(paths).toContain('/api/channel/fetch_models')
		expect(upstream.requests.map((request) => `${request.method} ${request.path} ${request.headers.authorization}`)).toEqual(['GET /v1/models Bearer sk-first'])
		await page.getByLabel('代理地址', { exact: true }).fill('')

		await page.getByLabel('自定义模型名称', { exact: true }).fill('gpt-4o-mini')
		await page.getByLabel('自定义模型名称', { exact: true }).press('Enter')
		await page.getByLabel('自动禁用', { exact: true }).click()
		await page.getByRole('button', { name: '移除 default' }).click()
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'error', '请至少选择一个分组').waitFor()
		await page.getByRole('button', { name: '选择分组' }).click()
		await page.getByRole('option', { name: 'default', exact: true }).click()
		await page.keyboard.press('Escape')
		expectNoErrors(opened)
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'success', '已创建 3 个渠道').waitFor()
		await page.waitForURL(`${harness.origin}/channel`)
		const created = (await findChannels('e2e-batch')).sort((left, right) => left.id - right.id)
		expect(created.map((channel) => channel.name)).toEqual(['e2e-batch', 'e2e-batch-2', 'e2e-batch-3'])
		expect(created.every((channel) => channel.auto_ban === 0 && channel.models === 'gpt-4o-mini' && channel.group === 'default')).toBe(true)
		expect(await Promise.all(created.map((channel) => storedKey(channel.id)))).toEqual(['sk-first', 'sk-second', 'sk-third'])
		await opened.close()
	}, 30_000)

	test('choosing a type presets its models only while none are chosen, and shows its own fields and key format', async () => {
		await harness.createChannel({ type: 24, name: 'gemini-preset', models: 'gemini-2.0-flash,gemini-2.5-pro,gemini-custom-tuned' })
		// Each type's presets: its default models, then what its channels add.
		const presets: Record<string, string[]> = (await harness.ferry.call('GET', '/api/models', { as: harness.root })).body.data
		expect(presets[24]).toEqual(expect.arrayContaining(['gemini-2.0-flash', 'gemini-2.5-pro', 'gemini-custom-tuned']))
		const opened = await harness.open('/channel/add', { as: asRoot() })
		const { page } = opened
		// The per-type lists of GET /api/models are kept in localStorage for the presets.
		await page.waitForFunction(() => localStorage.getItem('channel-models')?.includes('gemini-custom-tuned'))
		await page.getByLabel('组织', { exact: true }).waitFor()
		await chooseType(page, '类型', '谷歌 Gemini')
		expect(await chips(page, '模型').allTextContents()).toEqual(presets[24]!)
		await chooseType(page, '类型', 'Midjourney Proxy')
		expect(await chips(page, '模型').allTextContents()).toEqual(presets[24]!)
		await page.getByRole('button', { name: '清除所有模型' }).click()
		await chooseType(page, '类型', 'Midjourney Proxy Plus')
		expect(await chips(page, '模型').allTextContents()).toContain('mj_imagine')
		await page.getByRole('button', { name: '清除所有模型' }).click()

		await chooseType(page, '类型', '百度文心千帆')
		await page.getByText('按照如下格式输入：APIKey|SecretKey').first().waitFor()
		expect(await chips(page, '模型').allTextContents()).toEqual(presets[15]!)
		await page.getByRole('button', { name: '清除所有模型' }).click()
		expect(await page.getByLabel('组织', { exact: true }).count()).toBe(0)
		await chooseType(page, '类型', '谷歌 Vertex AI')
		await page.getByLabel('部署地区', { exact: true }).waitFor()
		await page.getByLabel('密钥文件 (JSON)', { exact: true }).fill('not a json key')
		await page.getByLabel('名称', { exact: true }).fill('e2e-vertex')
		await page.getByRole('button', { name: '清除所有模型' }).click()
		await page.getByRole('button', { name: '填入相关模型' }).click()
		expect(await chips(page, '模型').allTextContents()).toEqual(presets[41]!)
		await page.getByRole('button', { name: '清除所有模型' }).click()
		await page.getByLabel('自定义模型名称', { exact: true }).fill('gemini-1.5-pro')
		await page.getByRole('button', { name: '填入', exact: true }).click()
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'error', '密钥必须是服务账号的 JSON 密钥').waitFor()
		await chooseType(page, '类型', '硅基流动 SiliconCloud')
		expect(await page.getByRole('link', { name: '点此注册' }).getAttribute('href')).toBe('https://cloud.siliconflow.cn/')
		await chooseType(page, '类型', '微软 Azure OpenAI')
		await page.getByLabel('AZURE_OPENAI_ENDPOINT', { exact: true }).waitFor()
		expect(await page.getByLabel('默认 API 版本', { exact: true }).getAttribute('placeholder')).toContain('2023-06-01-preview')
		expect(await chips(page, '模型').allTextContents()).toEqual(['gemini-1.5-pro'])
		await page.getByRole('button', { name: '填入所有模型' }).click()
		expect(await chips(page, '模型').allTextContents()).toEqual(expect.arrayContaining(['gemini-1.5-pro', 'gemini-2.0-flash', 'gemini-2.5-pro']))
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('editing in English keeps the stored key when the key is left empty and saves the default API version', async () => {
		// Azure's data-plane model list, answered on loopback.
		const listed: { path: string; apiKey: string | null }[] = []
		const azure = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			fetch(request) {
				const url = new URL(request.url)
				listed.push({ path: `${url.pathname}${url.search}`, apiKey: request.headers.get('api-key') })
				return Response.json({ data: [{ id: 'gpt-4o', object: 'model' }, { id: 'gpt-4.1', object: 'model' }], object: 'list' }, { headers: { 'apim-request-id': 'e2e' } })
			},
		})
		const id = await harness.createChannel({ type: 3, name: 'e2e-azure', key: 'sk-azure-secret', base_url: `http://127.0.0.1:${azure.port}`, other: '2024-02-01', models: 'gpt-4o' })
		const opened = await harness.open(`/channel/edit/${id}`, { as: asRoot(), language: 'en' })
		const { page } = opened
		await page.getByRole('heading', { name: 'Edit channel' }).waitFor()
		expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('e2e-azure')
		expect(await page.getByLabel('Key', { exact: true }).inputValue()).toBe('')

		await page.getByRole('button', { name: 'Fetch model list' }).click()
		await toast(page, 'success', 'Fetched 2 models').waitFor()
		expect(listed).toEqual([{ path: '/openai/models?api-version=2024-02-01', apiKey: 'sk-azure-secret' }])
		azure.stop(true)
		await page.getByRole('button', { name: 'Clear models' }).click()
		expect(await chips(page, 'Model').count()).toBe(0)
		await page.getByRole('button', { name: 'Save', exact: true }).click()
		await toast(page, 'error', 'Please select at least one model').waitFor()
		await page.getByLabel('Custom model names', { exact: true }).fill('gpt-4.1, gpt-4o')
		await page.getByLabel('Custom model names', { exact: true }).press('Enter')

		await page.getByLabel('Name', { exact: true }).fill('e2e-azure-renamed')
		await page.getByLabel('AZURE_OPENAI_ENDPOINT', { exact: true }).fill('https://new.openai.azure.com/')
		await page.getByLabel('Default API version', { exact: true }).fill('')
		await page.getByLabel('Weight', { exact: true }).fill('-1')
		await page.getByRole('button', { name: 'Save', exact: true }).click()
		await toast(page, 'error', 'Weight must be a non-negative integer').waitFor()
		await page.getByLabel('Weight', { exact: true }).fill('4')
		await harness.screenshot(page, 'channel-editor-edit-en')
		expectNoErrors(opened)
		await page.getByRole('button', { name: 'Save', exact: true }).click()
		await toast(page, 'success', 'Channel updated').waitFor()
		await page.waitForURL(`${harness.origin}/channel`)

		const answer = await harness.ferry.call('GET', `/api/channel/${id}`, { as: harness.root })
		expect(answer.body.data).toMatchObject({
			name: 'e2e-azure-renamed', base_url: 'https://new.openai.azure.com', other: '2023-06-01-preview', models: 'gpt-4.1,gpt-4o', weight: 4,
		})
		expect(await storedKey(id)).toBe('sk-azure-secret')
		await opened.close()
	}, 30_000)

	test('the scheduled-test switch shows whether the channel takes part in the scheduled check and saves a change, in Chinese and in English', async () => {
		const id = await harness.createChannel({ name: 'e2e-unscheduled', models: 'gpt-4o-mini', scheduled_test_enabled: false })
		const scheduled = async () => (await harness.ferry.call('GET', `/api/channel/${id}`, { as: harness.root })).body.data.scheduled_test_enabled
		const zh = await harness.open(`/channel/edit/${id}`, { as: asRoot() })
		const toggle = zh.page.getByRole('switch', { name: '参与定时测试', exact: true })
		expect(await toggle.getAttribute('aria-checked')).toBe('false')
		await zh.page.getByText('关闭后，定时测试跳过这个渠道（测试要消耗上游额度时可以关闭）；手动测试和测试所有渠道不受影响').waitFor()
		await toggle.click()
		expect(await toggle.getAttribute('aria-checked')).toBe('true')
		expectNoErrors(zh)
		await zh.page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(zh.page, 'success', '渠道已更新').waitFor()
		expect(await scheduled()).toBe(true)
		await zh.close()

		const en = await harness.open(`/channel/edit/${id}`, { as: asRoot(), language: 'en' })
		const switchEn = en.page.getByRole('switch', { name: 'Scheduled tests', exact: true })
		expect(await switchEn.getAttribute('aria-checked')).toBe('true')
		await switchEn.click()
		await en.page.getByRole('button', { name: 'Save', exact: true }).click()
		await toast(en.page, 'success', 'Channel updated').waitFor()
		expect(await scheduled()).toBe(false)
		expectNoErrors(en)
		await en.close()
	}, 30_000)

	test('a base URL that does not parse or is not http(s) is refused at its field before saving, in zh and in en; a full URL with a port and a path saves', async () => {
		const opened = await harness.open('/channel/add', { as: asRoot() })
		const { page, paths } = opened
		const baseUrl = page.locator('#channel-base-url')
		const baseUrlError = page.locator('#channel-base-url-error')
		await page.getByLabel('名称', { exact: true }).fill('e2e-base-url')
		await page.getByLabel('密钥', { exact: true }).fill('sk-base-url-key')
		await page.getByLabel('自定义模型名称', { exact: true }).fill('gpt-4o-mini')
		await page.getByRole('button', { name: '填入', exact: true }).click()
		await baseUrl.fill('api.example.com/v1')
		await page.getByRole('button', { name: '保存', exact: true }).click()
		const zhMessage = '代理地址必须是以 http:// 或 https:// 开头的完整网址，例如 https://api.example.com'
		await toast(page, 'error', zhMessage).waitFor()
		expect(await baseUrlError.textContent()).toBe(zhMessage)
		expect(await baseUrl.getAttribute('aria-invalid')).toBe('true')
		await baseUrl.fill('ftp://files.example.com')
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'error', zhMessage).waitFor()
		expect(paths.filter((path) => path === '/api/channel/')).toEqual([])
		await baseUrl.fill('https://relay.example.com:8443/openai/v1/')
		await page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(page, 'success', '已创建 1 个渠道').waitFor()
		const [saved] = await findChannels('e2e-base-url')
		expect(saved).toMatchObject({ base_url: 'https://relay.example.com:8443/openai/v1' })
		expectNoErrors(opened)
		await opened.close()

		const english = await harness.open(`/channel/edit/${saved!.id}`, { as: asRoot(), language: 'en' })
		await english.page.getByRole('heading', { name: 'Edit channel' }).waitFor()
		await english.page.locator('#channel-base-url').fill('https//relay.example.com')
		await english.page.getByRole('button', { name: 'Save', exact: true }).click()
		await toast(english.page, 'error', 'The base URL must be a full address starting with http:// or https://, e.g. https://api.example.com').waitFor()
		expect(english.paths.filter((path) => path === '/api/channel/')).toEqual([])
		expectNoErrors(english)
		await english.close()
	}, 60_000)

	test('an admin who changes where the key is sent must enter the key again, which then fetches models there, and a looping model mapping is refused before saving', async () => {
		const admin = await harness.ferry.createUser('editor-admin', ROLE.admin)
		const listed: (string | null)[] = []
		const elsewhere = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			fetch(request) {
				listed.push(request.headers.get('authorization'))
				return Response.json({ object: 'list', data: [{ id: 'elsewhere-model', object: 'model' }] })
			},
		})
		const elsewhereUrl = `http://127.0.0.1:${elsewhere.port}`
		const id = await harness.createChannel({ type: 1, name: 'e2e-guarded', key: 'sk-origin-secret', base_url: 'https://origin.example', models: 'gpt-4o' })
		const opened = await harness.open(`/channel/edit/${id}`, { as: { ...admin, username: 'editor-admin', role: ROLE.admin } })
		const { page, paths } = opened
		try {
			await page.getByRole('heading', { name: '编辑渠道' }).waitFor()
			await page.getByLabel('模型重定向', { exact: true }).fill('{"gpt-4o": "gpt-4o-latest", "gpt-4o-latest": "gpt-4o"}')
			await page.getByRole('button', { name: '保存', exact: true }).click()
			await toast(page, 'error', '模型重定向存在循环（gpt-4o → gpt-4o-latest → gpt-4o），模型不能经由其他名称映射回自身').waitFor()
			await page.getByLabel('模型重定向', { exact: true }).fill('{"gpt-4o": "gpt-4o"}')

			const keyMessage = '类型、代理地址或地区等设置决定密钥发往何处，修改它们需要重新填写密钥'
			expect(await page.getByText(keyMessage).count()).toBe(0)
			await page.getByLabel('代理地址', { exact: true }).fill(elsewhereUrl)
			await page.getByText(keyMessage).first().waitFor()
			expect(await page.getByLabel('密钥', { exact: true }).getAttribute('placeholder')).toBe('请重新填写密钥')
			await page.getByRole('button', { name: '保存', exact: true }).click()
			await toast(page, 'error', keyMessage).waitFor()
			expect(paths.filter((path) => path === '/api/channel/')).toEqual([])
			expectNoErrors(opened)

			await page.getByLabel('密钥', { exact: true }).fill('sk-entered-again')
			await page.getByRole('button', { name: '获取模型列表' }).click()
			await toast(page, 'success', '已获取 1 个模型').waitFor()
			expect(listed).toEqual(['Bearer sk-entered-again'])
			await page.getByRole('button', { name: '保存', exact: true }).click()
			await toast(page, 'success', '渠道已更新').waitFor()
			await page.waitForURL(`${harness.origin}/channel`)
			const answer = await harness.ferry.call('GET', `/api/channel/${id}`, { as: harness.root })
			expect(answer.body.data).toMatchObject({ base_url: elsewhereUrl, models: 'gpt-4o,elsewhere-model', model_mapping: '{"gpt-4o": "gpt-4o"}' })
			expect(await storedKey(id)).toBe('sk-entered-again')
		} finally {
			elsewhere.stop(true)
			await opened.close()
		}
	}, 30_000)

	test('the form fits a 390 px screen', async () => {
		const opened = await harness.open('/channel/add', { as: asRoot(), width: 390 })
		const { page } = opened
		const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }))
		expect(widths.page).toBeLessThanOrEqual(widths.viewport)
		const save = page.getByRole('button', { name: '保存', exact: true })
		await save.scrollIntoViewIfNeeded()
		const box = await save.boundingBox()
		expect(box!.x + box!.width).toBeLessThanOrEqual(390)
		await harness.screenshot(page, 'channel-editor-390')
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('the type list has zh names and narrows to what is typed; arrows and Enter choose (and in English the adaptors\' names)', async () => {
		const opened = await harness.open('/channel/add', { as: asRoot(), width: 1400, language: 'zh', theme: 'dark' })
		const { page } = opened
		await page.getByLabel('类型', { exact: true }).click()
		const list = page.getByRole('listbox', { name: '渠道类型' })
		expect(await list.getByRole('option').count()).toBeGreaterThan(30)
		expect(await list.getByRole('option').allTextContents()).toContain('自定义渠道（OpenAI 兼容）8')
		await page.getByLabel('搜索渠道类型').fill('百度')
		expect(await list.getByRole('option').evaluateAll((options) => options.map((option) => option.firstElementChild?.nextElementSibling?.textContent))).toEqual(['百度文心千帆', '百度文心千帆 V2'])
		await page.keyboard.press('ArrowDown')
		await page.keyboard.press('Enter')
		expect(await page.getByLabel('类型', { exact: true }).textContent()).toBe('百度文心千帆 V2')
		await harness.screenshot(page, 'channel-editor-type-search-1400-zh-dark')
		expectNoErrors(opened)
		await opened.close()
		const english = await harness.open('/channel/add', { as: asRoot(), language: 'en' })
		await english.page.getByLabel('Type', { exact: true }).click()
		await english.page.getByLabel('Search channel types').fill('wenxin')
		expect(await english.page.getByRole('option').count()).toBe(2)
		expectNoErrors(english)
		await english.close()
	}, 30_000)

	describe('setup blockers told where they happen', () => {
		const privateUpstreams = (value: boolean) => harness.ferry.dependencies.options.set('PrivateUpstreamsEnabled', String(value))
		afterAll(() => privateUpstreams(true))

		async function fillLocalChannel(page: Page, name: string, labels: { name: string; baseUrl: string; key: string; custom: string; fill: string }) {
			await page.getByLabel(labels.name, { exact: true }).fill(name)
			await page.getByLabel(labels.baseUrl, { exact: true }).fill('http://127.0.0.1:11434')
			await page.getByLabel(labels.key, { exact: true }).fill('sk-local')
			await page.getByLabel(labels.custom, { exact: true }).fill('llama3-local')
			await page.getByRole('button', { name: labels.fill, exact: true }).click()
		}

		test('a loopback base URL warns on saving and the super admin turns private upstreams on from the warning; models without a price are flagged (zh, light, 1400 px)', async () => {
			await privateUpstreams(false)
			const opened = await harness.open('/channel/add', { as: asRoot(), width: 1400, language: 'zh', theme: 'light' })
			const { page } = opened
			await fillLocalChannel(page, 'lan-llama', { name: '名称', baseUrl: '代理地址', key: '密钥', custom: '自定义模型名称', fill: '填入' })
			const unpriced = page.getByTestId('unpriced-models')
			await unpriced.waitFor()
			expect(await unpriced.textContent()).toContain('llama3-local')
			expect(await unpriced.getByRole('link', { name: '去倍率设置为它们定价' }).getAttribute('href')).toBe('/setting?tab=operation&unpriced=true#model-ratio')
			await page.getByRole('button', { name: '保存', exact: true }).click()
			const dialog = page.getByTestId('private-upstream-dialog')
			await dialog.waitFor()
			expect(await dialog.getByRole('heading').textContent()).toContain('这个地址在私有网络上')
			expect(await dialog.textContent()).toContain('127.0.0.1')
			await harness.screenshot(page, 'channel-editor-private-upstream-1400-zh-light')
			expect(await findChannels('lan-llama')).toEqual([])
			await dialog.getByRole('button', { name: '允许私有网络上游并保存' }).click()
			await page.waitForURL(`${harness.origin}/channel`)
			expect(harness.ferry.dependencies.options.get('PrivateUpstreamsEnabled')).toBe(true)
			expect(await findChannels('lan-llama')).toHaveLength(1)
			expectNoErrors(opened)
			await opened.close()
		}, 60_000)

		test('an admin is told who can allow private upstreams and may save anyway (en, dark, 390 px)', async () => {
			await privateUpstreams(false)
			const admin = { ...(await harness.ferry.createUser('bosun', ROLE.admin)), username: 'bosun', role: ROLE.admin }
			const opened = await harness.open('/channel/add', { as: admin, width: 390, language: 'en', theme: 'dark' })
			const { page } = opened
			await fillLocalChannel(page, 'lan-llama-two', { name: 'Name', baseUrl: 'Base URL', key: 'Key', custom: 'Custom model names', fill: 'Add' })
			await page.getByTestId('unpriced-models').waitFor()
			expect(await page.getByTestId('unpriced-models').textContent()).toContain('Ask the super admin to price them')
			await page.getByRole('button', { name: 'Save', exact: true }).click()
			const dialog = page.getByTestId('private-upstream-dialog')
			await dialog.waitFor()
			expect(await dialog.textContent()).toContain('Only the super admin can allow them')
			expect(await dialog.getByRole('button', { name: 'Allow private upstreams and save' }).count()).toBe(0)
			await harness.screenshot(page, 'channel-editor-private-upstream-390-en-dark')
			await dialog.getByRole('button', { name: 'Save anyway' }).click()
			await page.waitForURL(`${harness.origin}/channel`)
			expect(harness.ferry.dependencies.options.get('PrivateUpstreamsEnabled')).toBe(false)
			expect(await findChannels('lan-llama-two')).toHaveLength(1)
			expectNoErrors(opened)
			await opened.close()
		}, 60_000)
	})
})
