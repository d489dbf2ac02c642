/**
 * Where to point a client (issue 32): the token page, where a sign-in lands, starts with the API base
 * URL, the balance and today's spend, and ready settings carrying the user's own token. The curl it
 * shows is run as it is against this server and succeeds; a token row copies its base URL with the
 * key and the Claude Code, Codex and Gemini CLI settings. In zh and en, light and dark, 1 400 px and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { ROLE } from '@shared/user'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const SUITE_TIMEOUT = 60_000
const STEP_TIMEOUT = 10_000
const CURL_TIMEOUT_MS = 20_000

type Visitor = Caller & { username: string; role: number }

describe.skipIf(!browserExecutable)('the start of the token page', () => {
	let harness: ConsoleHarness
	let starter: Visitor
	let newcomer: Visitor

	async function createVisitor(username: string, quota: number): Promise<Visitor> {
		const password = 'password123'
		const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username, password, display_name: username } })
		if (!created.body.success) throw new Error(`creating ${username} failed: ${created.body.message}`)
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: created.body.data.id, quota } })
		return { ...(await harness.ferry.login(username, password)), username, role: ROLE.user }
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const upstream = harness.startUpstream({ promptTokens: 12, completionTokens: 8, reply: 'Ahoy from the harbour' })
		await harness.createChannel({ name: 'harbour', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' })
		starter = await createVisitor('starter', 5_000_000)
		newcomer = await createVisitor('newcomer', 0)
	}, SUITE_TIMEOUT)

	afterAll(async () => {
		await harness?.close()
	})

	/** Runs a shell command the page shows, as a user would paste it. */
	async function runInShell(command: string) {
		const shell = Bun.spawn(['sh', '-c', `${command} --silent --show-error --max-time 15`], { stdout: 'pipe', stderr: 'pipe' })
		const timer = setTimeout(() => shell.kill(), CURL_TIMEOUT_MS)
		const [stdout, stderr, exitCode] = await Promise.all([new Response(shell.stdout).text(), new Response(shell.stderr).text(), shell.exited])
		clearTimeout(timer)
		return { stdout, stderr, exitCode }
	}

	const example = (page: Page, id: string) => page.getByTestId(`quick-start-${id}`)

	/** The JSON under the `# ~/.gemini/settings.json` line of the Gemini CLI settings. */
	function geminiSettings(text: string): unknown {
		const lines = text.split('\n')
		return JSON.parse(lines[lines.indexOf('# ~/.gemini/settings.json') + 1]!)
	}

	test('shows the API base URL and a curl with the user\'s own token that works when run as it is (zh, light, 1400 px)', async () => {
		const token = await harness.createToken({ name: 'deck' }, starter)
		const opened = await harness.open('/token', { as: starter, width: 1400, language: 'zh', theme: 'light' })
		const { page } = opened
		const panel = page.getByTestId('quick-start')
		await panel.waitFor()
		expect(await page.getByTestId('base-url').textContent()).toBe(`${harness.origin}/v1`)
		expect(await page.getByTestId('quick-start-balance').textContent()).toBe('$10.00')
		expect(await page.getByTestId('quick-start-today').textContent()).toBe('$0.00')
		expect(await panel.textContent()).toContain('示例使用令牌「deck」')
		const curl = (await example(page, 'curl').textContent())!
		expect(curl).toContain(`${harness.origin}/v1/chat/completions`)
		expect(curl).toContain(token.key)
		await harness.screenshot(page, 'quick-start-1400-zh-light')
		const ran = await runInShell(curl)
		expect({ exitCode: ran.exitCode, stderr: ran.stderr }).toEqual({ exitCode: 0, stderr: '' })
		const answer = JSON.parse(ran.stdout) as { choices: { message: { content: string } }[] }
		expect(answer.choices[0]!.message.content).toBe('Ahoy from the harbour')
		// The call shows in today's spend on the next visit.
		await page.reload()
		await page.waitForFunction(() => window.__hydrated === true)
		await page.waitForFunction(() => document.querySelector('[data-testid="quick-start-today"]')?.textContent !== '$0.00', undefined, { timeout: STEP_TIMEOUT }).catch(async () => {
			await page.reload()
			await page.waitForFunction(() => document.querySelector('[data-testid="quick-start-today"]')?.textContent !== '$0.00', undefined, { timeout: STEP_TIMEOUT })
		})
		expect(await page.getByTestId('quick-start-today').textContent()).toMatch(/^\$0\.0\d+$/)
		// The agents' settings carry the same address and key.
		await page.getByRole('tab', { name: 'Claude Code' }).click()
		expect(await example(page, 'claude-code').textContent()).toBe(`export ANTHROPIC_BASE_URL=${harness.origin}\nexport ANTHROPIC_AUTH_TOKEN=${token.key}`)
		await page.getByRole('tab', { name: 'Codex' }).click()
		const codex = (await example(page, 'codex').textContent())!
		expect(codex).toContain(`base_url = "${harness.origin}/v1"`)
		expect(codex).toContain('wire_api = "responses"')
		expect(codex).toContain(`export FERRY_API_KEY=${token.key}`)
		// Gemini CLI's headless runs need the API-key sign-in chosen in its settings, beside the address.
		await page.getByRole('tab', { name: 'Gemini CLI' }).click()
		const gemini = (await example(page, 'gemini-cli').textContent())!
		expect(geminiSettings(gemini)).toEqual({ security: { auth: { selectedType: 'gemini-api-key' } } })
		expect(gemini).toEndWith(`export GOOGLE_GEMINI_BASE_URL=${harness.origin}\nexport GEMINI_API_KEY=${token.key}`)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('a token row copies its base URL with the key and the Claude Code, Codex and Gemini CLI settings', async () => {
		const token = await harness.createToken({ name: 'copyable' }, starter)
		const opened = await harness.open('/token', { as: starter, width: 1400, language: 'en', theme: 'dark' })
		const { page, context } = opened
		await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
		const row = page.locator('tbody tr').filter({ has: page.getByText('copyable', { exact: true }) })
		const copyAs = async (item: string) => {
			await row.getByRole('button', { name: 'More ways to copy' }).click()
			await page.getByRole('menuitem', { name: item }).click()
			await page.waitForFunction(async (key) => (await navigator.clipboard.readText()).includes(key), token.key, { timeout: STEP_TIMEOUT })
			const copied = await page.evaluate(() => navigator.clipboard.readText())
			await page.evaluate(() => navigator.clipboard.writeText(''))
			return copied
		}
		expect(await copyAs('Copy base URL and key')).toBe(`OPENAI_BASE_URL=${harness.origin}/v1\nOPENAI_API_KEY=${token.key}`)
		expect(await copyAs('Copy as Claude Code settings')).toBe(`export ANTHROPIC_BASE_URL=${harness.origin}\nexport ANTHROPIC_AUTH_TOKEN=${token.key}`)
		expect(await copyAs('Copy as Codex settings')).toContain(`base_url = "${harness.origin}/v1"`)
		const gemini = await copyAs('Copy as Gemini CLI settings')
		expect(geminiSettings(gemini)).toEqual({ security: { auth: { selectedType: 'gemini-api-key' } } })
		expect(gemini).toEndWith(`export GOOGLE_GEMINI_BASE_URL=${harness.origin}\nexport GEMINI_API_KEY=${token.key}`)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('without a token the examples say so and offer to create one; the panel fits a phone and stays folded once folded (en, dark, 390 px)', async () => {
		const opened = await harness.open('/token', { as: newcomer, width: 390, language: 'en', theme: 'dark' })
		const { page } = opened
		await page.getByTestId('quick-start').waitFor()
		expect(await page.getByTestId('base-url').textContent()).toBe(`${harness.origin}/v1`)
		expect(await example(page, 'curl').textContent()).toContain('Bearer sk-...')
		expect(await page.getByTestId('quick-start').textContent()).toContain('No usable token yet')
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
		await harness.screenshot(page, 'quick-start-390-en-dark')
		await page.getByTestId('quick-start').getByRole('button', { name: 'Add token' }).click()
		await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).waitFor()
		await page.keyboard.press('Escape')
		await page.getByTestId('quick-start').getByRole('button', { name: 'Collapse' }).click()
		expect(await example(page, 'curl').count()).toBe(0)
		await page.reload()
		await page.waitForFunction(() => window.__hydrated === true)
		await page.getByTestId('quick-start').getByRole('button', { name: 'Expand' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.getByTestId('base-url').isVisible()).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)
})
