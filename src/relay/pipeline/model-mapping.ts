/**
 * A channel's `model_mapping` renames the model sent upstream; chains are followed
 * (a → b → c) and a cycle is a configuration error of that channel.
 */
export class ModelMappingCycleError extends Error {}

export function upstreamModel(mapping: Record<string, string>, model: string): string {
	const seen = new Set([model])
	let current = model
	while (Object.hasOwn(mapping, current) && mapping[current]) {
		current = mapping[current]!
		if (seen.has(current)) throw new ModelMappingCycleError(`model mapping of ${model} loops through ${[...seen].join(' → ')}`)
		seen.add(current)
	}
	return current
}
