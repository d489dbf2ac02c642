/** Text tables of a bench run, and the summary block meant for the README. */
import type { LoadResult } from './load'

/** `upstream`, `bare`, then the Ferry targets of the run (`ferry`: SQLite; `ferry-pg`, `ferry-pg-2`). */
export type TargetName = string
export const LABELS: Record<TargetName, string> = {
	upstream: 'upstream direct', bare: 'bare proxy', ferry: 'Ferry, SQLite', 'ferry-pg': 'Ferry, Postgres', 'ferry-pg-2': 'Ferry, Postgres × 2 nodes',
}
const labelOf = (target: TargetName) => LABELS[target] ?? target

export interface Run {
	result?: LoadResult
	/** CPU time of the target's own process per successful call. */
	cpuMicroseconds?: number
	/** CPU time of the Postgres server per successful call (targets on Postgres). */
	databaseCpuMicroseconds?: number
	/** Why there is no result. */
	note?: string
}

export type Runs = Partial<Record<TargetName, Run>>

/** One open-loop rate, run on every target that can sustain it. */
export interface OpenBlock {
	rate: number
	/** Why this rate, for the heading. */
	basis: string
	runs: Runs
}

export interface ModeResults {
	mode: 'non-stream' | 'stream' | 'non-stream, skewed tokens' | 'non-stream, one wallet'
	/** The targets in the order their rows are printed. */
	targets: TargetName[]
	saturation: Runs
	open: OpenBlock[]
	sequential: Runs
}

export interface Memory {
	idleMb: number
	peakMb: number
}

const grouped = (value: number) => Number.isFinite(value) ? Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ') : '—'
const fixed = (value: number | undefined, digits = 2) => value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : '—'
const signed = (value: number | undefined) => value !== undefined && Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(2)}` : '—'
/** Ratios of added latencies are only printed when the base is clearly above measurement noise. */
const MEANINGFUL_BASE = 0.05
const ratio = (value: number | undefined, base: number | undefined) => value !== undefined && base !== undefined && base >= MEANINGFUL_BASE && Number.isFinite(value / base) ? (value / base).toFixed(2) : '—'

/** Rows of two cells (a label and a note) are printed as they are, outside the columns. */
function table(header: string[], rows: string[][]) {
	const measured = rows.filter((row) => row.length > 2)
	const widths = header.map((title, column) => Math.max(title.length, ...measured.map((row) => (row[column] ?? '').length)))
	const line = (cells: string[]) => cells.length <= 2 && cells !== header
		? cells.map((cell, column) => column === 0 ? cell.padEnd(widths[0]!) : cell).join('  ')
		: cells.map((cell, column) => column === 0 || column === header.length - 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)).join('  ').trimEnd()
	return [line(header), ...rows.map(line)].join('\n')
}

function failureNote(result: LoadResult) {
	if (result.failed === 0) return ''
	const kinds = Object.entries(result.failures).map(([kind, count]) => `${kind} ×${count}`).join(', ')
	return `${result.failed} failed (${kinds})`
}

function rowsFor(targets: TargetName[], runs: Runs, cells: (run: Run & { result: LoadResult }, target: TargetName) => string[]) {
	return targets.map((target) => {
		const run = runs[target]
		if (!run?.result) return [labelOf(target), run?.note ?? 'not run']
		return [labelOf(target), ...cells(run as Run & { result: LoadResult }, target), failureNote(run.result)]
	})
}

/** Latency of a target minus the upstream's in the same block of runs. */
function added(runs: Runs, target: TargetName, field: 'p50' | 'p99') {
	const result = runs[target]?.result
	const reference = runs.upstream?.result
	return result && reference ? result[field] - reference[field] : undefined
}

export function modeTables(results: ModeResults, seconds: number, connections: number): string {
	const { saturation, sequential } = results
	const saturationTable = table(
		['target', 'calls/s', '÷ bare', 'p50 ms', 'p99 ms', 'added p50', 'added p99', 'CPU µs/call', 'Postgres µs/call', ''],
		rowsFor(results.targets, saturation, ({ result, cpuMicroseconds, databaseCpuMicroseconds }, target) => [
			grouped(result.perSecond), ratio(result.perSecond, saturation.bare?.result?.perSecond),
			fixed(result.p50), fixed(result.p99), signed(added(saturation, target, 'p50')), signed(added(saturation, target, 'p99')),
			fixed(cpuMicroseconds, 0), databaseCpuMicroseconds === undefined ? '' : fixed(databaseCpuMicroseconds, 0),
		]),
	)
	const openTables = results.open.map((block) => [
		`── ${results.mode}: open loop at ${grouped(block.rate)} calls/s (${block.basis}), ${seconds} s ──`,
		table(
			['target', 'achieved/s', 'p50 ms', 'p99 ms', 'added p50', 'added p99', 'added p99 ÷ bare', 'CPU µs/call', ''],
			rowsFor(results.targets, block.runs, ({ result, cpuMicroseconds }, target) => [
				grouped(result.perSecond), fixed(result.p50), fixed(result.p99),
				signed(added(block.runs, target, 'p50')), signed(added(block.runs, target, 'p99')),
				target === 'upstream' ? '' : ratio(added(block.runs, target, 'p99'), added(block.runs, 'bare', 'p99')),
				fixed(cpuMicroseconds, 0),
			]),
		),
		'',
	].join('\n'))
	const sequentialTable = table(
		['target', 'calls/s', 'p50 ms', 'p99 ms', 'added p50', 'added p99', ''],
		rowsFor(results.targets, sequential, ({ result }, target) => [
			grouped(result.perSecond), fixed(result.p50, 3), fixed(result.p99, 3),
			fixed(added(sequential, target, 'p50'), 3), fixed(added(sequential, target, 'p99'), 3),
		]),
	)
	return [
		`── ${results.mode}: saturation, ${connections} connections, ${seconds} s (closed loop) ──`, saturationTable, '',
		...openTables,
		`── ${results.mode}: sequential, 1 connection ──`, sequentialTable,
	].join('\n')
}

export function summaryBlock(all: ModeResults[], memory: Partial<Record<TargetName, Memory>>, context: string): string {
	const lines = [
		`Bench (\`bun run bench\`, ${context})`,
		'',
		'| mode | target | saturated calls/s | ÷ bare | CPU µs/call | open loop: added p50 / p99 ms | added p99 ÷ bare | sequential: added p50 / p99 ms |',
		'|---|---|---|---|---|---|---|---|',
	]
	for (const results of all) {
		for (const target of results.targets.filter((name) => name !== 'upstream')) {
			const saturation = results.saturation[target]
			const label = target === 'bare' ? results.mode : ''
			if (!saturation?.result) {
				lines.push(`| ${label} | ${labelOf(target)} | ${saturation?.note ?? 'not run'} | | | | | |`)
				continue
			}
			const block = results.open.find((candidate) => candidate.runs[target]?.result)
			const open = block
				? `${signed(added(block.runs, target, 'p50'))} / ${signed(added(block.runs, target, 'p99'))} at ${grouped(block.rate)}/s`
				: results.open[0]?.runs[target]?.note ?? '—'
			const openRatio = block ? ratio(added(block.runs, target, 'p99'), added(block.runs, 'bare', 'p99')) : '—'
			lines.push(`| ${label} | ${labelOf(target)} | ${grouped(saturation.result.perSecond)} | ${ratio(saturation.result.perSecond, results.saturation.bare?.result?.perSecond)} | ${fixed(saturation.cpuMicroseconds, 0)} | ${open} | ${openRatio} | ${signed(added(results.sequential, target, 'p50'))} / ${signed(added(results.sequential, target, 'p99'))} |`)
		}
	}
	const memoryLine = (target: TargetName) => {
		const reading = memory[target]
		return reading ? `${labelOf(target)} ${fixed(reading.idleMb, 0)} / ${fixed(reading.peakMb, 0)} MB` : `${labelOf(target)} —`
	}
	lines.push('', 'Added latencies are over the upstream called directly; "÷ bare" compares with the bare proxy at the same rate.')
	lines.push(`Resident memory, idle / peak: ${Object.keys(memory).map(memoryLine).join('; ')}.`)
	const ratioLines = ratioSummary(all)
	if (ratioLines.length > 0) lines.push('', ...ratioLines)
	return lines.join('\n')
}

const saturated = (results: ModeResults | undefined, target: TargetName) => results?.saturation[target]?.result?.perSecond

/** The ratios issue 29 asks about, from the saturation runs of this one run. */
export function ratioSummary(all: ModeResults[]): string[] {
	const byMode = new Map(all.map((results) => [results.mode, results]))
	const lines: string[] = []
	const say = (text: string, value: number | undefined, base: number | undefined) => {
		if (value !== undefined && base !== undefined && base > 0) lines.push(`- ${text}: ${(value / base).toFixed(2)}× (${grouped(value)} / ${grouped(base)} calls/s)`)
	}
	for (const mode of ['non-stream', 'stream'] as const) {
		say(`${mode}: Postgres node ÷ SQLite node`, saturated(byMode.get(mode), 'ferry-pg'), saturated(byMode.get(mode), 'ferry'))
		say(`${mode}: two Postgres nodes ÷ one`, saturated(byMode.get(mode), 'ferry-pg-2'), saturated(byMode.get(mode), 'ferry-pg'))
		say(`${mode}: SQLite node ÷ bare proxy`, saturated(byMode.get(mode), 'ferry'), saturated(byMode.get(mode), 'bare'))
	}
	for (const target of ['ferry', 'ferry-pg', 'ferry-pg-2']) {
		say(`one wallet ÷ many wallets (non-stream), ${labelOf(target)}`, saturated(byMode.get('non-stream, one wallet'), target), saturated(byMode.get('non-stream'), target))
	}
	return lines.length > 0 ? ['Ratios (saturation, this run):', ...lines] : []
}
