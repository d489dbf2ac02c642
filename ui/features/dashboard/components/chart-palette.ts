/**
 * Series colours: mid lightness and chroma, so each reads on the light and the dark card alike
 * (the themes define no chart colours). The last one, grey, is the "others" series.
 */
import { OTHER_MODELS } from '@ui/features/dashboard/usage-summary'

const SERIES_COLOURS = [
	'oklch(0.62 0.15 250)',
	'oklch(0.7 0.15 150)',
	'oklch(0.72 0.15 70)',
	'oklch(0.63 0.19 25)',
	'oklch(0.62 0.16 300)',
	'oklch(0.72 0.12 200)',
	'oklch(0.68 0.17 350)',
	'oklch(0.7 0.13 110)',
]
const OTHER_COLOUR = 'oklch(0.62 0.01 250)'

export function seriesColour(model: string, index: number): string {
	return model === OTHER_MODELS ? OTHER_COLOUR : SERIES_COLOURS[index % SERIES_COLOURS.length]!
}
