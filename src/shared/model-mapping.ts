/**
 * A channel's `model_mapping` renames the model sent upstream. Chains are followed (a → b → c).
 * An entry that maps a name to itself, or to nothing, ends the chain: a self-mapping is no
 * mapping. A chain that comes back to a name it already passed is a cycle: the channel cannot
 * serve that model (routing skips it), and saving such a mapping is refused. Shared by the relay,
 * the API's validation and the console's editor.
 */

export type MappingOutcome = { model: string; cycle?: undefined } | { model?: undefined; cycle: string[] }

/** The name `name` is renamed to, or undefined when the mapping leaves it as it is. */
function renamed(mapping: Readonly<Record<string, unknown>>, name: string): string | undefined {
	if (!Object.hasOwn(mapping, name)) return undefined
	const target = mapping[name]
	return typeof target === 'string' && target !== '' && target !== name ? target : undefined
}

/** The model sent upstream for `model`, or the loop it runs into (`[a, b, a]`). */
export function followModelMapping(mapping: Readonly<Record<string, unknown>>, model: string): MappingOutcome {
	const path = [model]
	const seen = new Set(path)
	for (let next = renamed(mapping, model); next !== undefined; next = renamed(mapping, path.at(-1)!)) {
		if (seen.has(next)) return { cycle: [...path.slice(path.indexOf(next)), next] }
		path.push(next)
		seen.add(next)
	}
	return { model: path.at(-1)! }
}

/** The first loop of the mapping (`[a, b, a]`), or undefined when every chain ends. Linear in the entries. */
export function findModelMappingCycle(mapping: Readonly<Record<string, unknown>>): string[] | undefined {
	const ending = new Set<string>()
	for (const start of Object.keys(mapping)) {
		const path: string[] = []
		const positions = new Map<string, number>()
		for (let name: string | undefined = start; name !== undefined && !ending.has(name); name = renamed(mapping, name)) {
			const position = positions.get(name)
			if (position !== undefined) return [...path.slice(position), name]
			positions.set(name, path.length)
			path.push(name)
		}
		for (const name of path) ending.add(name)
	}
	return undefined
}

/** How a loop is shown in messages: `a → b → a`. */
export const describeCycle = (cycle: readonly string[]) => cycle.join(' → ')

/** The loop in a mapping's JSON text; undefined for no loop, and for text that is not a JSON object (refused on its own). */
export function mappingCycle(text: string): string[] | undefined {
	if (!text.trim()) return undefined
	try {
		const parsed: unknown = JSON.parse(text)
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? findModelMappingCycle(parsed as Record<string, unknown>) : undefined
	} catch {
		return undefined
	}
}
