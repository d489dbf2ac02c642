/**
 * The visual model-ratio table's rows (docs/specification/accounts-and-settings.md#operation-tab "visual model pricing row") and their way back
 * to the `ModelPrice`, `ModelRatio` and `CompletionRatio` JSON options. Cells hold the typed text.
 */
export type RatioRow = { name: string; price: string; ratio: string; completionRatio: string }

const RATIO_TABLE_KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio'] as const
type RatioTableKey = (typeof RATIO_TABLE_KEYS)[number]
type NumberMap = Record<string, number>

/** Digits with at most one decimal point (docs/specification/accounts-and-settings.md#operation-tab: anything else is refused as you type). */
export const isNumericInput = (text: string) => /^\d*\.?\d*$/.test(text)

function parseMap(text: string | undefined): NumberMap | undefined {
	try {
		const parsed: unknown = JSON.parse(text ?? '')
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
		return parsed as NumberMap
	} catch {
		return undefined
	}
}

/** Undefined when one of the three options is not a JSON object (fix it in the JSON view first). */
export function rowsFromOptions(texts: Record<string, string>): RatioRow[] | undefined {
	const [prices, ratios, completions] = RATIO_TABLE_KEYS.map((key) => parseMap(texts[key]))
	if (!prices || !ratios || !completions) return undefined
	const names = [...new Set([...Object.keys(prices), ...Object.keys(ratios), ...Object.keys(completions)])]
	const cell = (map: NumberMap, name: string) => (map[name] === undefined ? '' : String(map[name]))
	return names.map((name) => ({ name, price: cell(prices, name), ratio: cell(ratios, name), completionRatio: cell(completions, name) }))
}

/** A row with neither a fixed price nor a model ratio: the relay refuses the model. */
export const isUnpriced = (row: RatioRow) => row.price === '' && row.ratio === ''

/** The rows with an empty row added for each of `models` not listed yet (channels' models without a price). */
export function withModels(rows: RatioRow[], models: readonly string[]): RatioRow[] {
	const listed = new Set(rows.map((row) => row.name))
	const added = models.filter((model) => !listed.has(model)).map((name) => ({ name, price: '', ratio: '', completionRatio: '' }))
	return added.length === 0 ? rows : [...added, ...rows]
}

function sameMap(left: NumberMap, right: NumberMap) {
	const keys = Object.keys(left)
	return keys.length === Object.keys(right).length && keys.every((key) => right[key] === left[key])
}

/**
 * The option texts the rows make, only for the options whose content differs from `texts` (key
 * order alone is no change). A priced row's ratios are kept as they were: the price wins when billing.
 */
export function changedOptionsFromRows(rows: RatioRow[], texts: Record<string, string>): Partial<Record<RatioTableKey, string>> {
	const built: Record<RatioTableKey, NumberMap> = { ModelPrice: {}, ModelRatio: {}, CompletionRatio: {} }
	for (const row of rows) {
		if (row.price !== '') built.ModelPrice[row.name] = Number(row.price)
		if (row.ratio !== '') built.ModelRatio[row.name] = Number(row.ratio)
		if (row.completionRatio !== '') built.CompletionRatio[row.name] = Number(row.completionRatio)
	}
	const changed: Partial<Record<RatioTableKey, string>> = {}
	for (const key of RATIO_TABLE_KEYS) {
		const current = parseMap(texts[key]) ?? {}
		if (!sameMap(current, built[key])) changed[key] = JSON.stringify(built[key], null, 2)
	}
	return changed
}
