/** The Prometheus text format as `/metrics` writes it (src/lib/prometheus.ts). */
import { describe, expect, test } from 'bun:test'
import { Counter, Gauge, Histogram, OVERFLOW_LABEL, renderMetrics } from '@/lib/prometheus'

describe('the Prometheus text format', () => {
	test('a counter writes its help, type and one line per label set, escaping backslashes, quotes and newlines', () => {
		const counter = new Counter({ name: 'ferry_things_total', help: 'Things.', labels: ['name', 'kind'] })
		counter.inc(['a "b"\\c\nd', 'x'], 2)
		counter.inc(['plain', 'y'])
		counter.inc(['plain', 'y'], 3)
		expect(renderMetrics([counter])).toBe([
			'# HELP ferry_things_total Things.',
			'# TYPE ferry_things_total counter',
			'ferry_things_total{name="a \\"b\\"\\\\c\\nd",kind="x"} 2',
			'ferry_things_total{name="plain",kind="y"} 4',
			'',
		].join('\n'))
	})

	test('a histogram writes cumulative buckets, +Inf, sum and count', () => {
		const histogram = new Histogram({ name: 'ferry_wait_seconds', help: 'Waits.', labels: ['endpoint'], buckets: [1, 0.1, 10] })
		for (const value of [0.05, 0.5, 0.7, 20]) histogram.observe(['chat'], value)
		const lines = renderMetrics([histogram]).split('\n')
		expect(lines).toContain('ferry_wait_seconds_bucket{endpoint="chat",le="0.1"} 1')
		expect(lines).toContain('ferry_wait_seconds_bucket{endpoint="chat",le="1"} 3')
		expect(lines).toContain('ferry_wait_seconds_bucket{endpoint="chat",le="10"} 3')
		expect(lines).toContain('ferry_wait_seconds_bucket{endpoint="chat",le="+Inf"} 4')
		expect(lines).toContain('ferry_wait_seconds_sum{endpoint="chat"} 21.25')
		expect(lines).toContain('ferry_wait_seconds_count{endpoint="chat"} 4')
	})

	test('past its series limit a metric counts new label sets in one "other" series', () => {
		const counter = new Counter({ name: 'ferry_bounded_total', help: 'Bounded.', labels: ['model'], maxSeries: 3 })
		for (let index = 0; index < 100; index++) counter.inc([`model-${index}`])
		const lines = renderMetrics([counter]).split('\n').filter((line) => line.startsWith('ferry_bounded_total'))
		expect(lines).toEqual(['ferry_bounded_total{model="model-0"} 1', 'ferry_bounded_total{model="model-1"} 1', 'ferry_bounded_total{model="model-2"} 1', `ferry_bounded_total{model="${OVERFLOW_LABEL}"} 97`])
	})

	test('a gauge without labels goes up and down', () => {
		const gauge = new Gauge({ name: 'ferry_open', help: 'Open.' })
		gauge.add([], 2)
		gauge.add([], -1)
		expect(renderMetrics([gauge])).toContain('\nferry_open 1\n')
	})
})
