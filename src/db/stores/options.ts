/**
 * Runtime options: the registry's defaults overlaid with the rows of `options`, held in memory
 * for the hot path and written through to the database on change.
 */
import {
	isOptionKey, OPTION_DEFINITIONS, OPTION_MESSAGES, OptionValueError, PAYMENT_OPTION_KEYS, SECRET_OPTION_KEYS,
	type OptionKey, type OptionValue,
} from '@shared/option'
import { DEFAULT_MODEL_RATIO } from '@shared/default-prices'
import { inEnglish, nested, withValues, type ServerMessage } from '@shared/messages'
import type { Store } from '@/db'
import type { Logger } from '@/lib/logger'

/** A value the option rules refuse, with its catalogue message: the API answers it as a refusal. */
export class OptionRefusedError extends Error {
	constructor(readonly reason: ServerMessage) {
		super(inEnglish(reason))
	}
}

const refused = (reason: ServerMessage) => new OptionRefusedError(reason)

export interface OptionStore {
	get<Key extends OptionKey>(key: Key): OptionValue<Key>
	/** Every option as its stored text, secrets left out: the `GET /api/option/` answer. */
	listPublic(): { key: string; value: string }[]
	/** Checks and saves one option; throws an OptionRefusedError with its catalogue message when refused. */
	set(key: string, text: string): Promise<void>
	resetModelRatio(): Promise<void>
	/** Re-reads the table (another node changed it). */
	reload(): Promise<void>
}

export async function createOptionStore(store: Store, logger: Logger): Promise<OptionStore> {
	let values = {} as Record<OptionKey, unknown>
	let texts = {} as Record<OptionKey, string>
	const { options } = store.tables

	/** Builds the new values aside and swaps them in, so a request never sees a half-read table. */
	async function reload() {
		const stored = await store.db.select().from(options)
		const nextValues = {} as Record<OptionKey, unknown>
		const nextTexts = {} as Record<OptionKey, string>
		for (const key of Object.keys(OPTION_DEFINITIONS) as OptionKey[]) {
			const definition = OPTION_DEFINITIONS[key] as (typeof OPTION_DEFINITIONS)[OptionKey] & { format(value: unknown): string }
			nextValues[key] = definition.defaultValue
			nextTexts[key] = definition.format(definition.defaultValue)
		}
		for (const row of stored) {
			if (!isOptionKey(row.key)) continue
			try {
				nextValues[row.key] = OPTION_DEFINITIONS[row.key].parse(row.value)
				nextTexts[row.key] = row.value
			} catch (error) {
				logger.warn('ignoring an unreadable stored option, using its default', { key: row.key, reason: (error as Error).message })
			}
		}
		values = nextValues
		texts = nextTexts
	}

	async function save(key: OptionKey, text: string) {
		await store.db.insert(options).values({ key, value: text }).onConflictDoUpdate({ target: options.key, set: { value: text } })
	}

	await reload()
	return {
		get: (key) => values[key] as never,
		listPublic: () => (Object.keys(texts) as OptionKey[])
			.filter((key) => !SECRET_OPTION_KEYS.includes(key))
			.map((key) => ({ key, value: texts[key] })),
		async set(key, text) {
			if (!isOptionKey(key)) throw refused(withValues(OPTION_MESSAGES.unknownKey, { key }))
			let value: unknown
			try {
				value = OPTION_DEFINITIONS[key].parse(text)
			} catch (error) {
				if (error instanceof OptionValueError) throw refused(withValues(OPTION_MESSAGES.valueRefused, { key, reason: nested(error.reason) }))
				throw error
			}
			// Payment settings build the addresses the payment service calls and sends payers back to
			// (docs/specification/accounts-and-settings.md#options). A malformed value is named first; clearing one needs no address.
			if (PAYMENT_OPTION_KEYS.includes(key) && text.trim() !== '' && !values.ServerAddress) throw refused(OPTION_MESSAGES.serverAddressFirst)
			const normalized = (OPTION_DEFINITIONS[key] as { format(value: unknown): string }).format(value)
			await save(key, normalized)
			values[key] = value
			texts[key] = normalized
		},
		async resetModelRatio() {
			const text = JSON.stringify(DEFAULT_MODEL_RATIO)
			await save('ModelRatio', text)
			values.ModelRatio = { ...DEFAULT_MODEL_RATIO }
			texts.ModelRatio = text
		},
		reload,
	}
}

