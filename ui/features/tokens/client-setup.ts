/**
 * What a client needs to reach Ferry with a token: the API base URL, a ready curl command, and the
 * settings of the SDKs and coding agents people point at a gateway. `address` is the site's address
 * (`server_address`, else the page's origin) without a trailing slash.
 */
import type { Status } from '@ui/lib/status'

/** The site's address: the configured server address, else where the page was loaded from. */
export function siteAddress(status: Pick<Status, 'server_address'>, origin: string) {
	return (status.server_address.trim() || origin).replace(/\/+$/, '')
}

/** OpenAI-format clients (and most others) take the address with `/v1`. */
export const apiBaseUrl = (address: string) => `${address}/v1`

/** Quotes a value for a POSIX shell. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`

/** A chat completion with the token, one line per part so it reads (and pastes) well. */
export function curlCommand(address: string, key: string, model: string) {
	const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello!' }] })
	return [
		`curl ${shellQuote(`${apiBaseUrl(address)}/chat/completions`)} \\`,
		`  -H ${shellQuote(`Authorization: Bearer ${key}`)} \\`,
		`  -H 'Content-Type: application/json' \\`,
		`  -d ${shellQuote(body)}`,
	].join('\n')
}

/** The OpenAI SDKs (and many tools) read these two variables. */
export const openAiEnvironment = (address: string, key: string) => `OPENAI_BASE_URL=${apiBaseUrl(address)}\nOPENAI_API_KEY=${key}`

/** Claude Code sends `/v1/messages` to ANTHROPIC_BASE_URL, so it takes the address without `/v1`. */
export const claudeCodeEnvironment = (address: string, key: string) => `export ANTHROPIC_BASE_URL=${address}\nexport ANTHROPIC_AUTH_TOKEN=${key}`

/** Codex: a provider in ~/.codex/config.toml speaking the Responses API, its key in an environment variable. */
export function codexConfiguration(address: string, key: string) {
	return [
		'# ~/.codex/config.toml',
		'model_provider = "ferry"',
		'',
		'[model_providers.ferry]',
		'name = "Ferry"',
		`base_url = "${apiBaseUrl(address)}"`,
		'env_key = "FERRY_API_KEY"',
		'wire_api = "responses"',
		'',
		'# shell',
		`export FERRY_API_KEY=${key}`,
	].join('\n')
}

/**
 * Gemini CLI calls the Gemini format (`/v1beta/...`) under GOOGLE_GEMINI_BASE_URL. With that variable
 * alone, `gemini -p` (headless) refuses to start ("Invalid auth method selected"): the CLI takes it as a
 * sign-in type its own check rejects, and only the API-key sign-in chosen in its settings (which its
 * first interactive start asks for) makes it use GEMINI_API_KEY with the address.
 */
export function geminiCliConfiguration(address: string, key: string) {
	return [
		'# ~/.gemini/settings.json',
		'{ "security": { "auth": { "selectedType": "gemini-api-key" } } }',
		'',
		'# shell',
		`export GOOGLE_GEMINI_BASE_URL=${address}`,
		`export GEMINI_API_KEY=${key}`,
	].join('\n')
}
