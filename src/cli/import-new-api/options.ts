/**
 * new-api's `options` (model/option.go): one key/value row per setting. Every key Ferry knows is
 * checked with Ferry's own rule for it and stored in Ferry's form; a value Ferry's rule refuses is
 * left out (Ferry keeps its default) and named; keys Ferry does not know are listed as skipped.
 */
import { isOptionKey, OPTION_DEFINITIONS, OptionValueError, type OptionKey } from '@shared/option'
import type { ReportSection } from './report'
import type { SourceRow } from './source'
import { text } from './values'

export type OptionRow = { key: OptionKey; value: string }

export function mapOptions(sourceRows: readonly SourceRow[], report: ReportSection): OptionRow[] {
	const options: OptionRow[] = []
	for (const row of sourceRows) {
		report.read += 1
		const key = text(row, 'key')
		if (!isOptionKey(key)) {
			report.skip('not a Ferry option', key)
			continue
		}
		const definition = OPTION_DEFINITIONS[key] as { parse(text: string): unknown; format(value: unknown): string }
		try {
			options.push({ key, value: definition.format(definition.parse(text(row, 'value'))) })
		} catch (error) {
			if (!(error instanceof OptionValueError)) throw error
			report.skip(`value Ferry refuses (Ferry keeps its default) — ${key} ${error.message}`, key)
		}
	}
	report.imported = options.length
	return options
}
