/**
 * A small Prometheus registry: counters, gauges and histograms with labels, written out in the
 * text exposition format (version 0.0.4) only when scraped. Recording a value is a map lookup and
 * an addition, so it can sit on the relay's hot path; the text is built on scrape.
 *
 * Label values are the caller's to bound (the relay clamps model names it does not serve). As a
 * last guard each metric keeps at most `maxSeries` series: past it, new label combinations are
 * counted in one series whose every label is `OVERFLOW_LABEL`, so memory and scrape size stay bounded
 * whatever reaches it.
 */

export const OVERFLOW_LABEL = 'other'
const DEFAULT_MAX_SERIES = 10_000
/** Joins label values into a series key; cannot occur in a label value a caller means to keep apart. */
const KEY_SEPARATOR = '\u0000'

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

type MetricKind = 'counter' | 'gauge' | 'histogram'

interface Metric {
	render(lines: string[]): void
}

function escapeLabelValue(value: string) {
	return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
}

function formatNumber(value: number) {
	if (Number.isNaN(value)) return 'NaN'
	if (value === Infinity) return '+Inf'
	if (value === -Infinity) return '-Inf'
	return String(value)
}

function labelText(names: readonly string[], values: readonly string[], extra?: string) {
	const pairs = names.map((name, index) => `${name}="${escapeLabelValue(values[index] ?? '')}"`)
	if (extra) pairs.push(extra)
	return pairs.length > 0 ? `{${pairs.join(',')}}` : ''
}

function header(lines: string[], name: string, help: string, kind: MetricKind) {
	lines.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${kind}`)
}

/** The series of one metric, keyed by its label values. */
class SeriesMap<Entry> {
	private readonly series = new Map<string, { values: readonly string[]; entry: Entry }>()

	constructor(private readonly labelCount: number, private readonly maxSeries: number, private readonly create: () => Entry) {}

	get(values: readonly string[]): Entry {
		const key = values.length === 1 ? values[0]! : values.join(KEY_SEPARATOR)
		const found = this.series.get(key)
		if (found) return found.entry
		if (this.series.size >= this.maxSeries) return this.overflow()
		const entry = this.create()
		this.series.set(key, { values: [...values], entry })
		return entry
	}

	private overflow(): Entry {
		const values = Array.from({ length: this.labelCount }, () => OVERFLOW_LABEL)
		const key = values.join(KEY_SEPARATOR)
		let found = this.series.get(key)
		if (!found) {
			found = { values, entry: this.create() }
			this.series.set(key, found)
		}
		return found.entry
	}

	entries() {
		return this.series.values()
	}
}

interface MetricOptions {
	name: string
	help: string
	labels?: readonly string[]
	maxSeries?: number
}

/** A value that only goes up (calls, tokens, quota). */
export class Counter implements Metric {
	private readonly series: SeriesMap<{ value: number }>

	constructor(private readonly options: MetricOptions) {
		this.series = new SeriesMap(options.labels?.length ?? 0, options.maxSeries ?? DEFAULT_MAX_SERIES, () => ({ value: 0 }))
	}

	/** `values` in the order of the metric's label names. */
	inc(values: readonly string[] = [], amount = 1) {
		if (!(amount > 0)) return
		this.series.get(values).value += amount
	}

	render(lines: string[]) {
		const { name, help, labels = [] } = this.options
		header(lines, name, help, 'counter')
		for (const { values, entry } of this.series.entries()) lines.push(`${name}${labelText(labels, values)} ${formatNumber(entry.value)}`)
	}
}

/** A value that goes up and down (calls in flight). */
export class Gauge implements Metric {
	private readonly series: SeriesMap<{ value: number }>

	constructor(private readonly options: MetricOptions) {
		this.series = new SeriesMap(options.labels?.length ?? 0, options.maxSeries ?? DEFAULT_MAX_SERIES, () => ({ value: 0 }))
	}

	add(values: readonly string[], amount: number) {
		this.series.get(values).value += amount
	}

	set(values: readonly string[], value: number) {
		this.series.get(values).value = value
	}

	render(lines: string[]) {
		const { name, help, labels = [] } = this.options
		header(lines, name, help, 'gauge')
		for (const { values, entry } of this.series.entries()) lines.push(`${name}${labelText(labels, values)} ${formatNumber(entry.value)}`)
	}
}

/** Observations counted into buckets (upper bounds, ascending); rendered cumulative, as Prometheus reads them. */
export class Histogram implements Metric {
	private readonly series: SeriesMap<{ counts: Float64Array; sum: number; count: number }>
	private readonly buckets: readonly number[]

	constructor(private readonly options: MetricOptions & { buckets: readonly number[] }) {
		this.buckets = [...options.buckets].sort((a, b) => a - b)
		const size = this.buckets.length
		this.series = new SeriesMap(options.labels?.length ?? 0, options.maxSeries ?? DEFAULT_MAX_SERIES, () => ({ counts: new Float64Array(size), sum: 0, count: 0 }))
	}

	observe(values: readonly string[], value: number) {
		if (!Number.isFinite(value)) return
		const entry = this.series.get(values)
		const { buckets } = this
		for (let index = 0; index < buckets.length; index++) {
			if (value <= buckets[index]!) {
				entry.counts[index]!++
				break
			}
		}
		entry.sum += value
		entry.count++
	}

	render(lines: string[]) {
		const { name, help, labels = [] } = this.options
		header(lines, name, help, 'histogram')
		for (const { values, entry } of this.series.entries()) {
			let cumulative = 0
			for (let index = 0; index < this.buckets.length; index++) {
				cumulative += entry.counts[index]!
				lines.push(`${name}_bucket${labelText(labels, values, `le="${formatNumber(this.buckets[index]!)}"`)} ${cumulative}`)
			}
			lines.push(`${name}_bucket${labelText(labels, values, 'le="+Inf"')} ${entry.count}`)
			lines.push(`${name}_sum${labelText(labels, values)} ${formatNumber(entry.sum)}`)
			lines.push(`${name}_count${labelText(labels, values)} ${entry.count}`)
		}
	}
}

/** Metrics whose values are read when scraped (channel status, pending holds, memory). */
export interface Sample {
	labels?: Record<string, string>
	value: number
}

export function renderSamples(lines: string[], name: string, help: string, kind: 'gauge' | 'counter', samples: readonly Sample[]) {
	header(lines, name, help, kind)
	for (const sample of samples) {
		const names = Object.keys(sample.labels ?? {})
		lines.push(`${name}${labelText(names, names.map((label) => sample.labels![label]!))} ${formatNumber(sample.value)}`)
	}
}

/** Renders metrics in order, ending with the newline the format asks for. */
export function renderMetrics(metrics: readonly Metric[], more: readonly string[] = []): string {
	const lines: string[] = []
	for (const metric of metrics) metric.render(lines)
	lines.push(...more)
	return `${lines.join('\n')}\n`
}
