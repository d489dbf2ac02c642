/**
 * What an import takes over and what it leaves, table by table: counts, and for everything skipped
 * or changed on the way a reason with the first few ids it concerns. `--dry-run` prints this
 * without writing; a real import prints it when done.
 */

/** Ids named per reason; the count says how many there were in all. */
const EXAMPLES_SHOWN = 8

interface Finding {
	count: number
	examples: string[]
}

class Section {
	read = 0
	imported = 0
	readonly skipped = new Map<string, Finding>()
	readonly notes = new Map<string, Finding>()

	/** A row (or `count` rows) left out, and why. */
	skip(reason: string, example?: string | number, count = 1) {
		record(this.skipped, reason, example, count)
	}

	/** A row imported with something dropped or changed, or a fact worth knowing. */
	note(message: string, example?: string | number) {
		record(this.notes, message, example)
	}
}

function record(findings: Map<string, Finding>, reason: string, example: string | number | undefined, count = 1) {
	const finding = findings.get(reason) ?? { count: 0, examples: [] }
	finding.count += count
	if (example !== undefined && finding.examples.length < EXAMPLES_SHOWN) finding.examples.push(String(example))
	findings.set(reason, finding)
}

function describe(reason: string, { count, examples }: Finding): string {
	if (examples.length === 0) return count > 1 ? `${reason} (${count} rows)` : reason
	const more = count > examples.length ? `, … ${count - examples.length} more` : ''
	return `${reason}: ${examples.join(', ')}${more}`
}

export class ImportReport {
	private readonly sections = new Map<string, Section>()

	section(table: string): Section {
		let section = this.sections.get(table)
		if (!section) {
			section = new Section()
			this.sections.set(table, section)
		}
		return section
	}

	lines(): string[] {
		const lines: string[] = []
		for (const [table, section] of this.sections) {
			const skippedCount = [...section.skipped.values()].reduce((total, finding) => total + finding.count, 0)
			lines.push(`${table}: ${section.read} read, ${section.imported} imported${skippedCount ? `, ${skippedCount} skipped` : ''}`)
			for (const [reason, finding] of section.skipped) lines.push(`  skipped — ${describe(reason, finding)}`)
			for (const [message, finding] of section.notes) lines.push(`  note — ${describe(message, finding)}`)
		}
		return lines
	}
}

export type ReportSection = ReturnType<ImportReport['section']>
